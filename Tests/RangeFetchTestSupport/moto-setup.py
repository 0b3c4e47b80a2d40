#!/usr/bin/env python3
"""Fills a running moto S3 server for the tests, with boto3: a bucket, its objects, an IAM user whose access key may
read them, a presigned URL of each object and, with --enforce-auth, moto checking the signature of every later
request (its /moto-api/reset-auth).

Usage: moto-setup.py ENDPOINT BUCKET KEY=FILE... [--enforce-auth]
Prints one JSON object: {"accessKeyID", "secretAccessKey", "presigned": {key: url}}.
"""
import json
import sys
import urllib.request

import boto3
from botocore.config import Config


def main():
    args = [a for a in sys.argv[1:] if a != "--enforce-auth"]
    endpoint, bucket, objects = args[0], args[1], [a.split("=", 1) for a in args[2:]]
    common = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup",
                  aws_secret_access_key="setup", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
    iam = boto3.client("iam", **common)
    s3 = boto3.client("s3", **common)
    iam.create_user(UserName="thumbs")
    iam.put_user_policy(UserName="thumbs", PolicyName="read", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject", "s3:ListBucket", "s3:PutBucketNotification", "s3:GetBucketNotification", "sqs:*"], "Resource": "*"}],
    }))
    key = iam.create_access_key(UserName="thumbs")["AccessKey"]
    s3.create_bucket(Bucket=bucket)
    presigned = {}
    for name, path in objects:
        with open(path, "rb") as f:
            s3.put_object(Bucket=bucket, Key=name, Body=f.read())
        presigned[name] = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": name}, ExpiresIn=3600)
    if "--enforce-auth" in sys.argv:
        # As text: a form's body would be parsed away before moto reads it.
        urllib.request.urlopen(urllib.request.Request(endpoint + "/moto-api/reset-auth", data=b"0", method="POST",
                                                      headers={"Content-Type": "text/plain"})).read()
    print(json.dumps({"accessKeyID": key["AccessKeyId"], "secretAccessKey": key["SecretAccessKey"],
                      "presigned": presigned}))


if __name__ == "__main__":
    main()
