#!/usr/bin/env python3
"""Live-output interop client (issue 20): with stubs generated from grok-tools.proto alone, runs a
command printing 64 MiB of random bytes (also written to a file in the workspace) over
ExecuteToolStream with `x-grok-live-output: 1`, and checks that the live chunks
(STREAM_DATA_KIND_UNSPECIFIED) reassemble to exactly those bytes, that every kind's offsets are
contiguous, and that the authoritative prompt_text/output_json chunks match the final result's sizes.
Exits 1 with a message naming the first mismatch.
"""
import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_client import PROTO_DEFAULT, fail, generate_stubs  # noqa: E402

SIZE = 64 * 1024 * 1024
LIVE_HEADER = "x-grok-live-output"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("address", help="host:port or unix:/path")
    parser.add_argument("--workspace", required=True, help="the server's workspace folder")
    parser.add_argument("--proto", default=PROTO_DEFAULT)
    args = parser.parse_args()

    import grpc

    out_dir = tempfile.mkdtemp(prefix="gt-py-stubs-")
    try:
        pb, pb_grpc = generate_stubs(args.proto, out_dir)
        with grpc.insecure_channel(args.address, options=[("grpc.max_receive_message_length", 64 * 1024 * 1024)]) as channel:
            run(pb, pb_grpc.GrokToolsServiceStub(channel), args)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def run(pb, stub, args):
    finalized = stub.FinalizeToolConfigRequest(
        pb.FinalizeToolServerConfigRequest(tools=[pb.ToolConfigEntry(id="GrokBuild:run_terminal_cmd", params_json='{"enabled_background": false}')]),
        timeout=30,
    )
    if not finalized.success:
        fail(f"FinalizeToolConfigRequest failed: {finalized.message}")

    copy = "live-64mib.bin"
    command = f"head -c {SIZE} /dev/urandom | tee {copy}"
    request = pb.ExecuteToolRequest(tool_name="run_terminal_cmd", input_json=json.dumps({"command": command, "description": "64 MiB of live output", "timeout": 240000}))
    kinds = (pb.STREAM_DATA_KIND_UNSPECIFIED, pb.STREAM_DATA_KIND_PROMPT_TEXT, pb.STREAM_DATA_KIND_OUTPUT_JSON)
    parts = {kind: bytearray() for kind in kinds}
    final = None
    result_started = False
    for chunk in stub.ExecuteToolStream(request, metadata=[(LIVE_HEADER, "1")], timeout=250):
        if final is not None:
            fail("ExecuteToolStream sent a chunk after the final result")
        if chunk.WhichOneof("chunk") == "data":
            kind = chunk.data.kind
            if kind not in parts:
                fail(f"ExecuteToolStream sent a chunk of unknown kind {kind}")
            if kind == pb.STREAM_DATA_KIND_UNSPECIFIED and result_started:
                fail("live output arrived after the result's chunks had begun")
            if kind != pb.STREAM_DATA_KIND_UNSPECIFIED:
                result_started = True
            part = parts[kind]
            if chunk.data.offset != len(part):
                fail(f"kind {kind}: chunk offset {chunk.data.offset}, expected {len(part)}")
            part.extend(chunk.data.data)
        else:
            final = chunk.final_result
    if final is None or final.HasField("error"):
        fail(f"ExecuteToolStream ended without a successful final result: {final}")
    if final.prompt_text_size != len(parts[pb.STREAM_DATA_KIND_PROMPT_TEXT]) or final.output_json_size != len(parts[pb.STREAM_DATA_KIND_OUTPUT_JSON]):
        fail("the final result's sizes do not match the prompt_text/output_json bytes streamed")

    live = bytes(parts[pb.STREAM_DATA_KIND_UNSPECIFIED])
    with open(os.path.join(args.workspace, copy), "rb") as f:
        expected = f.read()
    os.remove(os.path.join(args.workspace, copy))
    if len(expected) != SIZE:
        fail(f"the command wrote {len(expected)} bytes, expected {SIZE}")
    if len(live) != SIZE or hashlib.sha256(live).digest() != hashlib.sha256(expected).digest():
        fail(f"the live output ({len(live)} bytes) differs from what the command printed ({SIZE} bytes)")

    output = json.loads(bytes(parts[pb.STREAM_DATA_KIND_OUTPUT_JSON]).decode("utf-8"))
    if output.get("type") != "Bash" or output.get("exit_code") != 0 or output.get("total_bytes") != SIZE:
        fail(f"unexpected output_json: type={output.get('type')} exit_code={output.get('exit_code')} total_bytes={output.get('total_bytes')}")
    prompt = bytes(parts[pb.STREAM_DATA_KIND_PROMPT_TEXT]).decode("utf-8")
    if not prompt.startswith("exit: 0"):
        fail(f"the prompt_text does not start with the exit line: {prompt[:80]!r}")

    print(json.dumps({"ok": True, "address": args.address, "live_bytes": len(live), "sha256": hashlib.sha256(live).hexdigest(), "prompt_text_bytes": len(prompt.encode())}))


if __name__ == "__main__":
    main()
