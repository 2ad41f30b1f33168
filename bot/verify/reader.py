"""A reader process: one worker's pages read and their quotes matched, one page at a time.

Started by :mod:`bot.verify.pool` (``python -I -c ...``, an empty environment: a reader sees
no secret); it reads jobs on stdin and writes replies on a copy of stdout, whose own descriptor
then points at stderr so that nothing a library prints can break a frame. Before it reads a
page it confines itself: at most ``memory`` bytes of address space (a page that needs more
fails here, not in the worker), ``cpu_seconds`` of CPU per job (past it the kernel ends the
reader with SIGXCPU, the worker alive or not), a lower priority than the worker's, no core
files, and Ctrl-C left to the worker. It exits at the end of its input, after ``jobs`` jobs,
or once it holds more than ``recycle`` bytes after a job (what the job freed handed back):
the pool starts another when one is needed.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import math
import os
import resource
import signal
import sys
from collections.abc import Callable
from typing import BinaryIO

from bot.verify.jobs import Reply, read_job, reply_frame
from bot.verify.page import Unreadable

__all__ = ["main"]

log = logging.getLogger(__name__)


def main(memory: int, cpu_seconds: int, jobs: int, recycle: int) -> None:
    """Serve jobs until the input ends or the reader is spent (arguments: see the module)."""
    replies = _confine(memory)
    from bot.verify.read import judge  # after the limits: the heavy imports count against them

    trim = _malloc_trim()
    replies.write(reply_frame(Reply()))  # ready: the job's deadline starts with the job
    for done in range(1, jobs + 1):
        job = read_job(sys.stdin.buffer)
        if job is None:
            return
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent_cpu = math.ceil(used.ru_utime + used.ru_stime)
        _lower(resource.RLIMIT_CPU, spent_cpu + cpu_seconds, soft=True)  # then SIGXCPU ends it
        page, quotes, extract = job
        spent = done == jobs
        try:
            reply = Reply(verdicts=judge(page, quotes, extract=extract))
        except Unreadable as why:
            reply = Reply(why=str(why))
        except MemoryError:
            reply, spent = Reply(why="the page needs more memory than a reader has"), True
        except Exception as error:  # a library's bug on a strange page: that page only
            log.warning("quote check: reading failed (%s)", type(error).__name__, exc_info=True)
            reply = Reply(why=f"reading failed ({type(error).__name__})")
        del job, page
        gc.collect()
        trim()
        spent = spent or _resident() > recycle
        replies.write(reply_frame(Reply(reply.verdicts, reply.why, last=spent)))
        if spent:
            return


def _confine(memory: int) -> BinaryIO:
    """The limits above; returns where replies go (the original stdout)."""
    with contextlib.suppress(OSError):
        os.nice(10)  # below the worker, whose event loop must wake on time
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as group:
        group.write("10")  # the same for its session, where Linux groups a session's tasks
    _lower(resource.RLIMIT_AS, memory)
    _lower(resource.RLIMIT_CORE, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    logging.basicConfig(level=logging.WARNING, format="citebot reader %(process)d: %(message)s")
    for noisy in ("trafilatura", "htmldate", "courlan", "justext", "pypdf"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
    return replies


def _lower(limit: int, value: int, *, soft: bool = False) -> None:
    """Set ``limit`` to ``value`` within what the process may (its hard limit stays where it
    is when ``soft``: the CPU budget is raised again for the next job)."""
    _, hard = resource.getrlimit(limit)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(limit, (value, hard if soft else value))


def _resident() -> int:
    """This process's resident memory now, in bytes, where Linux says it (/proc); elsewhere its
    peak. Not the peak on Linux: a reader started by vfork inherits its worker's peak."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def _malloc_trim() -> Callable[[], object]:
    """glibc's malloc_trim, which hands the pages a job freed back between jobs; elsewhere
    nothing."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    trim.argtypes = [ctypes.c_size_t]
    return lambda: trim(0)
