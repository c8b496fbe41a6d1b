"""The network edge: the message schema, the two codecs, and (to come) the Autobahn server and sessions."""
