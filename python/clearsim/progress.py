"""A text progress bar for runs (progress=True)."""

import sys
import time


class ProgressBar:
    """Called as bar(t, t_end) by a run, at most ten times a second; draws on stderr."""

    def __init__(self, label, stream=None, width=30):
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.monotonic()

    def __call__(self, t, t_end):
        share = min(1.0, max(0.0, t / t_end)) if t_end > 0 else 1.0
        filled = int(round(share * self.width))
        bar = "#" * filled + "-" * (self.width - filled)
        wall = time.monotonic() - self.start
        self.stream.write(f"\r{self.label} [{bar}] {share:6.1%}  t = {t:.4g} s  wall {wall:.1f} s")
        if share >= 1.0:
            self.stream.write("\n")
        self.stream.flush()
