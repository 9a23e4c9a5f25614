/**
 * The message size our server and client agree on: the server sends and accepts messages up to
 * this size, and the client's default receive limit is the same, so nothing the server can send is
 * refused by a default client (gRPC's own default is 4 MiB). Not part of the proto; the one
 * hand-written constant of this package besides the re-export, because both ends need it.
 */

/** Largest gRPC message, in bytes, our server sends or receives and our client receives by default. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
