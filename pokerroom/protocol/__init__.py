"""The one protocol: the schema of every request and push, the two codecs (msgpack, JSON), the error codes.

``schema`` (requests), ``pushes`` (every push and the events inside them),
``errors`` (the catalogue of codes), ``codec`` (the two encodings) and
``reference`` (the generated part of docs/protocol.md). It knows no socket
and no service: the gateway parses frames with it, the services answer with
it, the test clients check every message they get with it, and
docs/protocol.md is generated from and checked against it.
"""
