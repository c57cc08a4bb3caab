"""The standard-library modules the guest offers, imported once at build time.

componentize-py snapshots the interpreter after the guest's top-level imports run, so a
module imported here costs nothing at isolate start-up, and a module NOT imported here (and
not pulled in by one that is) does not exist inside the isolate at all: the stdlib directory
is not mounted at run time.

The set is deliberate. It is what model-written code commonly reaches for: text, data
formats, dates, maths, hashing, compression, containers, typing. Left out on purpose:
anything that would reach outside the isolate or pretend to (``socket``, ``ssl``,
``select``, ``subprocess``, ``multiprocessing``, ``threading``, ``asyncio``,
``urllib.request``, ``http.client``, ``ctypes``) and modules the build lacks (``bz2``,
``lzma``). ``runtime.block_modules`` removes any of those that a module below drags in
and refuses to import them later; the host grants no network either way.
"""

from __future__ import annotations

# ruff: noqa: F401  (every import here is the point: it puts the module into the guest image)

import _strptime  # noqa: F401  (time.strptime and datetime.strptime import it lazily)
import abc
import argparse
import array
import ast
import base64
import binascii
import bisect
import calendar
import cmath
import codecs
import collections
import collections.abc
import colorsys
import contextlib
import copy
import csv
import dataclasses
import datetime
import decimal
import difflib
import enum
import errno
import fnmatch
import fractions
import functools
import glob
import graphlib
import gzip
import hashlib
import heapq
import hmac
import html
import html.parser
import inspect
import io
import ipaddress
import itertools
import json
import keyword
import locale
import math
import numbers
import operator
import os
import pathlib
import pickle
import posixpath
import pprint
import queue
import random
import re
import reprlib
import secrets
import shlex
import sqlite3
import stat
import statistics
import string
import struct
import sys
import tarfile
import textwrap
import time
import tokenize
import tomllib
import traceback
import types
import typing
import unicodedata
import urllib.parse
import uuid
import warnings
import weakref
import xml.dom.minidom
import xml.etree.ElementTree
import zipfile
import zlib

PRELOADED_MODULES: tuple[str, ...] = (
    "_strptime", "abc", "argparse", "array", "ast", "base64", "binascii", "bisect", "calendar", "cmath",
    "codecs", "collections", "collections.abc", "colorsys", "contextlib", "copy", "csv",
    "dataclasses", "datetime", "decimal", "difflib", "enum", "errno", "fnmatch", "fractions",
    "functools", "glob", "graphlib", "gzip", "hashlib", "heapq", "hmac", "html",
    "html.parser", "inspect", "io", "ipaddress", "itertools", "json", "keyword", "locale",
    "math", "numbers", "operator", "os", "pathlib", "pickle", "posixpath", "pprint", "queue",
    "random", "re", "reprlib", "secrets", "shlex", "sqlite3", "stat", "statistics", "string",
    "struct", "sys", "tarfile", "textwrap", "time", "tokenize", "tomllib", "traceback",
    "types", "typing", "unicodedata", "urllib.parse", "uuid", "warnings", "weakref",
    "xml.dom.minidom", "xml.etree.ElementTree", "zipfile", "zlib",
)
"""Every module above, by name: the guest test imports each one inside a real isolate."""

BLOCKED_MODULES: tuple[str, ...] = (
    "socket", "_socket", "ssl", "_ssl", "select", "selectors", "subprocess", "_posixsubprocess",
    "multiprocessing", "_multiprocessing", "asyncio", "ctypes", "_ctypes", "urllib.request",
    "http.client", "http.server", "socketserver", "ftplib", "smtplib", "poplib", "imaplib",
    "telnetlib", "xmlrpc.client", "webbrowser", "mmap", "resource", "pty", "fcntl",
)
"""Modules that must not be importable in the guest, even if a preloaded module needs one."""

__all__ = ["PRELOADED_MODULES", "BLOCKED_MODULES"]
