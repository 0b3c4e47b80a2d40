#!/usr/bin/env python3
"""Workers on a queue against `thumbs batch`, over the same objects in an S3-compatible store (moto's server, from the
checkout's .build/moto-venv): N uploads announced by the bucket's notifications to an SQS queue, K `thumbs worker`
processes making their pictures; then one `thumbs batch s3://bucket/uploads/ -o s3://bucket/batch/` over the same
objects.

Figures: the time from each upload's end to its picture's appearance under the output prefix (median, p95; the
listing is polled every 50 ms, so each is late by up to that), pictures per second in all, per worker and per core,
and the batch's wall time and pictures per second; once with the workers running while the uploads arrive, once with
every upload queued before they start (the drain rate). The uploads are the fixtures named below, in copies, the pictures
320 px PNGs. moto runs on this machine and answers at once: what is measured is the workers' own work and their
requests' round trips on loopback, not a real store's latency. Writes Benchmarks/results/worker-queue.md and .json.

Usage: Benchmarks/harness/worker-queue.py --thumbs PATH [--uploads 100] [--workers 1,2,3]
Run it with the moto environment's Python: .build/moto-venv/bin/python Benchmarks/harness/worker-queue.py ...
"""
import argparse
import datetime
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time

import boto3

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RESULTS = os.path.join(ROOT, "Benchmarks", "results")
FIXTURES = ["h264-faststart.mp4", "hevc-8bit.mp4", "h264-bframes.mp4", "rotate-90.mp4", "matroska/vp9-8bit.cues-back.webm"]
CREDENTIALS = dict(region_name="us-east-1", aws_access_key_id="bench", aws_secret_access_key="bench")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_moto():
    port = free_port()
    process = subprocess.Popen([os.path.join(ROOT, ".build", "moto-venv", "bin", "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return process, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit("moto_server did not start")


def environment(endpoint):
    env = dict(os.environ)
    env.update(AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_REGION="us-east-1", AWS_ENDPOINT_URL=endpoint)
    return env


def run_workers(thumbs, endpoint, count, uploads, backlog=False):
    s3 = boto3.client("s3", endpoint_url=endpoint, **CREDENTIALS)
    sqs = boto3.client("sqs", endpoint_url=endpoint, **CREDENTIALS)
    tag = f"w{count}-{int(time.time() * 1000)}"
    bucket = "bench-" + tag.lower()
    s3.create_bucket(Bucket=bucket)
    queue = sqs.create_queue(QueueName=tag, Attributes={"VisibilityTimeout": "60"})["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration={"QueueConfigurations": [{
        "QueueArn": arn, "Events": ["s3:ObjectCreated:*"], "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": "uploads/"}]}}}]})
    sqs.purge_queue(QueueUrl=queue)  # the notification's test event
    def start():
        return [subprocess.Popen([thumbs, "worker", "--queue-url", queue, "-o", f"s3://{bucket}/pictures/", "--wait", "1",
                                  "--max-size", "320"], env=environment(endpoint), stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL) for _ in range(count)]
    workers = [] if backlog else start()
    bodies = {name: open(os.path.join(ROOT, "Fixtures", name), "rb").read() for name in FIXTURES}
    uploaded = {}
    started = time.monotonic()
    for index in range(uploads):
        name = FIXTURES[index % len(FIXTURES)]
        stem = f"uploads/clip {index}"
        s3.put_object(Bucket=bucket, Key=f"{stem}.{name.rsplit('.', 1)[1]}", Body=bodies[name])
        uploaded[f"pictures/{stem}.png"] = time.monotonic()
    if backlog:  # every upload waits in the queue; the workers start now
        started = time.monotonic()
        workers = start()
    appeared = {}
    paginator = s3.get_paginator("list_objects_v2")
    deadline = time.monotonic() + 600
    while len(appeared) < uploads and time.monotonic() < deadline:
        now = time.monotonic()
        for page in paginator.paginate(Bucket=bucket, Prefix="pictures/"):
            for item in page.get("Contents", []):
                appeared.setdefault(item["Key"], now)
        time.sleep(0.05)
    wall = max(appeared.values()) - started if appeared else float("nan")
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.wait(timeout=60)
    latencies = sorted(appeared[key] - uploaded[key] for key in appeared if key in uploaded)
    return {"workers": count, "backlog": backlog, "uploads": uploads, "pictures": len(appeared), "wallS": wall,
            "latencyMedianS": statistics.median(latencies), "latencyP95S": latencies[int(0.95 * (len(latencies) - 1))],
            "picturesPerSecond": len(appeared) / wall, "bucket": bucket}


def run_batch(thumbs, endpoint, bucket):
    started = time.monotonic()
    subprocess.run([thumbs, "batch", f"s3://{bucket}/uploads/", "-o", f"s3://{bucket}/batch/", "--max-size", "320"],
                   env=environment(endpoint), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--thumbs", required=True)
    parser.add_argument("--uploads", type=int, default=100)
    parser.add_argument("--workers", default="1,2,3")
    args = parser.parse_args()
    moto, endpoint = start_moto()
    cores = os.cpu_count() or 1
    rows = []
    try:
        for backlog in (False, True):
            for count in [int(n) for n in args.workers.split(",")]:
                row = run_workers(os.path.abspath(args.thumbs), endpoint, count, args.uploads, backlog=backlog)
                row["batchWallS"] = run_batch(os.path.abspath(args.thumbs), endpoint, row.pop("bucket"))
                rows.append(row)
                print(json.dumps(row), flush=True)
    finally:
        moto.kill()
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "worker-queue.json"), "w") as f:
        json.dump({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                   "machine": platform.platform(), "cores": cores, "rows": rows}, f, indent=1)
    lines = ["# Workers on a queue beside a batch", "",
             f"{args.uploads} uploads ({', '.join(FIXTURES)} in turn) to moto on this machine ({cores} cores), 320 px PNGs.", "",
             "Arriving: the workers run while the uploads are made (one at a time by boto3), each picture timed from its "
             "upload's end. Backlog: every upload is queued before the workers start, the time is from their start.", "",
             "| uploads | workers | upload to picture: median, p95 | pictures/s (per worker, per core) | all pictures in | `thumbs batch` over the same objects |",
             "| --- | ---: | --- | --- | ---: | --- |"]
    for row in rows:
        rate = row["picturesPerSecond"]
        latency = f"{row['latencyMedianS']:.2f} s, {row['latencyP95S']:.2f} s" if not row["backlog"] else "(queued first)"
        lines.append(f"| {'backlog' if row['backlog'] else 'arriving'} | {row['workers']} | {latency} | {rate:.1f} "
                     f"({rate / row['workers']:.1f}, {rate / cores:.1f}) | {row['wallS']:.1f} s | "
                     f"{row['batchWallS']:.1f} s, {row['uploads'] / row['batchWallS']:.1f} pictures/s |")
    with open(os.path.join(RESULTS, "worker-queue.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
