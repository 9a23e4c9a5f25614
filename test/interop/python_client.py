#!/usr/bin/env python3
"""Interop client: talks to a grok-tools server through stubs generated at run time from
grok-tools.proto alone (no TypeScript involved). ListTools -> FinalizeToolConfigRequest with one
tool -> ExecuteTool (success and a FILE_NOT_FOUND error) -> ExecuteToolStream, checking each answer.
Exits 1 with a message naming the first mismatch.

Needs (Debian): python3-grpcio python3-protobuf protobuf-compiler protobuf-compiler-grpc.
"""
import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

PROTO_DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "packages", "proto", "proto", "grok-tools.proto")


def fail(message):
    print(f"interop FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def generate_stubs(proto_path, out_dir):
    """Generates grok_tools_pb2(_grpc).py with Debian's protoc and grpc_python_plugin.

    grpc_tools.protoc from python3-grpc-tools bundles protoc 3.5, which rejects proto3
    `optional`; protoc 3.21 from protobuf-compiler accepts it.
    """
    protoc = shutil.which("protoc")
    plugin = shutil.which("grpc_python_plugin")
    if not protoc or not plugin:
        fail("protoc and grpc_python_plugin are required: apt-get install -y protobuf-compiler protobuf-compiler-grpc")
    proto_dir, proto_file = os.path.split(os.path.abspath(proto_path))
    subprocess.run(
        [protoc, f"-I{proto_dir}", f"--python_out={out_dir}", f"--grpc_out={out_dir}", f"--plugin=protoc-gen-grpc={plugin}", proto_file],
        check=True,
    )
    sys.path.insert(0, out_dir)
    stem = os.path.splitext(proto_file)[0].replace("-", "_")
    return importlib.import_module(f"{stem}_pb2"), importlib.import_module(f"{stem}_pb2_grpc")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("address", help="host:port or unix:/path")
    parser.add_argument("--file", required=True, help="a file in the server's workspace, relative to it")
    parser.add_argument("--expect", required=True, help="text the read_file prompt text must contain")
    parser.add_argument("--tool", default="GrokBuild:read_file", help="tool id to finalize with")
    parser.add_argument("--token", help="bearer token")
    parser.add_argument("--proto", default=PROTO_DEFAULT)
    args = parser.parse_args()

    import grpc  # after argparse so --help works without grpc installed

    out_dir = tempfile.mkdtemp(prefix="gt-py-stubs-")
    try:
        pb, pb_grpc = generate_stubs(args.proto, out_dir)
        metadata = [("authorization", f"Bearer {args.token}")] if args.token else []
        with grpc.insecure_channel(args.address) as channel:
            stub = pb_grpc.GrokToolsServiceStub(channel)
            run(pb, stub, metadata, args)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def run(pb, stub, metadata, args):
    timeout_s = 30
    client_name = args.tool.split(":", 1)[1]

    listed = stub.ListTools(pb.ListToolsRequest(include_schemas=True), metadata=metadata, timeout=timeout_s)
    names = [t.name for t in listed.tools]
    if args.tool not in names:
        fail(f"ListTools before finalize does not list {args.tool}; it lists {names}")
    entry = next(t for t in listed.tools if t.name == args.tool)
    if entry.enabled or entry.namespace != args.tool.split(":", 1)[0]:
        fail(f"ListTools before finalize: {args.tool} should be disabled with namespace set, got enabled={entry.enabled} namespace={entry.namespace!r}")
    json.loads(entry.input_schema_json)

    finalized = stub.FinalizeToolConfigRequest(
        pb.FinalizeToolServerConfigRequest(tools=[pb.ToolConfigEntry(id=args.tool)]), metadata=metadata, timeout=timeout_s
    )
    if not finalized.success:
        fail(f"FinalizeToolConfigRequest failed: {finalized.message}")
    if [t.name for t in finalized.tools] != [client_name]:
        fail(f"FinalizeToolConfigRequest returned tools {[t.name for t in finalized.tools]}, expected [{client_name!r}]")

    after = stub.ListTools(pb.ListToolsRequest(), metadata=metadata, timeout=timeout_s)
    if [(t.name, t.enabled) for t in after.tools] != [(client_name, True)]:
        fail(f"ListTools after finalize: {[(t.name, t.enabled) for t in after.tools]}, expected [({client_name!r}, True)]")

    request = pb.ExecuteToolRequest(tool_name=client_name, input_json=json.dumps({"target_file": args.file}))
    response = stub.ExecuteTool(request, metadata=metadata, timeout=timeout_s)
    if response.WhichOneof("result") != "success":
        fail(f"ExecuteTool {client_name} {args.file}: expected success, got {response}")
    prompt_text = response.success.prompt_text
    if args.expect not in prompt_text:
        fail(f"ExecuteTool prompt_text does not contain {args.expect!r}:\n{prompt_text}")
    output = json.loads(response.success.output_json)
    if not isinstance(output, dict) or not isinstance(output.get("type"), str):
        fail(f"output_json is not an object tagged by 'type': {response.success.output_json[:200]}")

    missing = stub.ExecuteTool(
        pb.ExecuteToolRequest(tool_name=client_name, input_json=json.dumps({"target_file": "does-not-exist.txt"})), metadata=metadata, timeout=timeout_s
    )
    if missing.WhichOneof("result") != "error" or missing.error.code != pb.ERROR_CODE_FILE_NOT_FOUND:
        fail(f"ExecuteTool on a missing file: expected error FILE_NOT_FOUND, got {missing}")

    # The same read over the stream, in small chunks: the bytes must reassemble to the unary answer.
    stream_request = pb.ExecuteToolRequest(tool_name=client_name, input_json=request.input_json, options=pb.ExecutionOptions(stream_chunk_size=7))
    parts = {pb.STREAM_DATA_KIND_PROMPT_TEXT: bytearray(), pb.STREAM_DATA_KIND_OUTPUT_JSON: bytearray()}
    final = None
    for chunk in stub.ExecuteToolStream(stream_request, metadata=metadata, timeout=timeout_s):
        if final is not None:
            fail("ExecuteToolStream sent a chunk after the final result")
        if chunk.WhichOneof("chunk") == "data":
            part = parts[chunk.data.kind]
            if chunk.data.offset != len(part):
                fail(f"ExecuteToolStream chunk offset {chunk.data.offset}, expected {len(part)}")
            part.extend(chunk.data.data)
        else:
            final = chunk.final_result
    if final is None or final.HasField("error"):
        fail(f"ExecuteToolStream ended without a successful final result: {final}")
    streamed_prompt = bytes(parts[pb.STREAM_DATA_KIND_PROMPT_TEXT])
    if final.prompt_text_size != len(streamed_prompt) or final.output_json_size != len(parts[pb.STREAM_DATA_KIND_OUTPUT_JSON]):
        fail("ExecuteToolStream sizes in the final result do not match the streamed bytes")
    if streamed_prompt.decode("utf-8") != prompt_text:
        fail("ExecuteToolStream prompt_text differs from ExecuteTool's")
    if json.loads(bytes(parts[pb.STREAM_DATA_KIND_OUTPUT_JSON]).decode("utf-8")) != output:
        fail("ExecuteToolStream output_json differs from ExecuteTool's")

    print(json.dumps({"ok": True, "address": args.address, "listed": len(names), "finalized": [client_name], "prompt_text_bytes": len(streamed_prompt)}))


if __name__ == "__main__":
    main()
