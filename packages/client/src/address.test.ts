import { describe, expect, it } from "@jest/globals";
import { toGrpcTarget } from "./address.js";

describe("toGrpcTarget", () => {
  it.each([
    ["127.0.0.1:50051", "127.0.0.1:50051"],
    ["localhost:1", "localhost:1"],
    ["[::1]:50051", "[::1]:50051"],
    ["http://127.0.0.1:7000/", "127.0.0.1:7000"],
    ["unix:/tmp/a.sock", "unix:/tmp/a.sock"],
    ["unix:///tmp/a.sock", "unix:///tmp/a.sock"],
    [" dns:///example.com:443 ", "dns:///example.com:443"],
  ])("%s → %s", (input, target) => {
    expect(toGrpcTarget(input)).toBe(target);
  });

  it("refuses an empty address and a host without a port", () => {
    expect(() => toGrpcTarget("  ")).toThrow("The server address is empty");
    expect(() => toGrpcTarget("localhost")).toThrow('The server address "localhost" has no port');
  });
});
