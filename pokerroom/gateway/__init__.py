"""The gateway: Autobahn connections, their limits and closing, frames in and out through the protocol."""
