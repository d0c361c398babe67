"""Progress of runs (progress=True): a tqdm bar when python3-tqdm is installed (tqdm.auto: a
widget in Jupyter when ipywidgets is there, text elsewhere), else a hand-written text bar."""

import sys
import time
import warnings


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

    def close(self):
        """Nothing to release (the bar ends its line when it reaches 100 %)."""


class TqdmBar:
    """The same calls, drawn by tqdm: the bar counts simulated seconds up to t_end."""

    def __init__(self, label, tqdm):
        self._tqdm = tqdm
        self._label = label
        self._bar = None

    def __call__(self, t, t_end):
        if self._bar is None:
            self._bar = self._tqdm(total=t_end, desc=self._label, unit="s",
                                   bar_format="{l_bar}{bar}| t = {n:.4g}/{total:.4g} s "
                                              "[{elapsed}<{remaining}]")
        self._bar.n = min(t, t_end)
        self._bar.refresh()

    def close(self):
        """Ends the bar (also when the run stopped early)."""
        if self._bar is not None:
            self._bar.close()


def _tqdm():
    """tqdm.auto's tqdm, or None when tqdm is not installed."""
    # In Jupyter without ipywidgets, tqdm.auto warns once and draws text instead of a widget:
    # the text bar is what it draws either way, so the warning is not shown.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            from tqdm.auto import tqdm
        except ImportError:
            return None
    return tqdm


def progress_callback(progress, label):
    """What a run calls with (t, t_end): None for progress=False, a bar for True (tqdm if
    installed, else ProgressBar), the callable itself otherwise."""
    if progress is True:
        tqdm = _tqdm()
        return TqdmBar(label, tqdm) if tqdm is not None else ProgressBar(label)
    if not progress:
        return None
    if not callable(progress):
        raise TypeError(f"progress: expected True, False or a callable progress(t, t_end), "
                        f"found {type(progress).__name__} {progress!r}")
    return progress
