"""The thin Twisted shell around the pure core: timers now; the network, storage and app arrive with #5."""
