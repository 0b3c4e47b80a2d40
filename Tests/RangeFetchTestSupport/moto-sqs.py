"""What a user of SQS does with boto3, for the tests: makes queues and sends messages, as the producer beside the
worker under test. Prints one JSON value.

  moto-sqs.py ENDPOINT KEY SECRET create NAME [--dead-letter-after N]   {"url": ..., "deadLetterUrl": ...}
  moto-sqs.py ENDPOINT KEY SECRET send URL BODY...                      {"sent": N}
  moto-sqs.py ENDPOINT KEY SECRET count URL                             {"visible": N, "inFlight": N}
  moto-sqs.py ENDPOINT KEY SECRET notify BUCKET PREFIX URL               {"notified": true}  (ObjectCreated under PREFIX,
                                                                        beside the bucket's other notifications)
  moto-sqs.py ENDPOINT KEY SECRET upload BUCKET KEY=FILE...             {"uploaded": N}
"""
import json
import sys

import boto3


def main():
    endpoint, key, secret, action = sys.argv[1:5]
    rest = sys.argv[5:]
    sqs = boto3.client("sqs", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                       aws_secret_access_key=secret)
    if action == "create":
        name = rest[0]
        attributes = {"VisibilityTimeout": "30"}
        result = {}
        if "--dead-letter-after" in rest:
            count = rest[rest.index("--dead-letter-after") + 1]
            dead = sqs.create_queue(QueueName=name + "-dead")["QueueUrl"]
            arn = sqs.get_queue_attributes(QueueUrl=dead, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
            attributes["RedrivePolicy"] = json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": count})
            result["deadLetterUrl"] = dead
        result["url"] = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        print(json.dumps(result))
    elif action == "send":
        for body in rest[1:]:
            sqs.send_message(QueueUrl=rest[0], MessageBody=body)
        print(json.dumps({"sent": len(rest) - 1}))
    elif action == "count":
        attributes = sqs.get_queue_attributes(QueueUrl=rest[0], AttributeNames=[
            "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
        print(json.dumps({"visible": int(attributes["ApproximateNumberOfMessages"]),
                          "inFlight": int(attributes["ApproximateNumberOfMessagesNotVisible"])}))
    elif action == "notify":
        bucket, prefix, url = rest[:3]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                          aws_secret_access_key=secret)
        # Added to the bucket's other notifications (a configuration is replaced whole by each put).
        existing = s3.get_bucket_notification_configuration(Bucket=bucket).get("QueueConfigurations", [])
        s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration={"QueueConfigurations": existing + [{
            "QueueArn": arn, "Events": ["s3:ObjectCreated:*"],
            "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": prefix}]}}}]})
        print(json.dumps({"notified": True}))
    elif action == "upload":
        s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                          aws_secret_access_key=secret)
        for pair in rest[1:]:
            name, path = pair.split("=", 1)
            with open(path, "rb") as f:
                s3.put_object(Bucket=rest[0], Key=name, Body=f.read())
        print(json.dumps({"uploaded": len(rest) - 1}))
    else:
        sys.exit(f"unknown action {action}")


if __name__ == "__main__":
    main()
