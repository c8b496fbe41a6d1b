"""The one protocol: the schema of every request and push, the two codecs (msgpack, JSON), the error codes.

It knows no socket and no service: the gateway parses frames with it, the
services answer with it, and docs/protocol.md is checked against it.
"""
