#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Fail when a C function of the given files is longer than a bound.

Usage: function_length.py MAX SOURCE|FOLDER...

A FOLDER stands for its .c and .h files.

A function's length is its lines from the one holding its name through
its closing brace (the return type's line before it not counted). The
files are read as DPDK's coding style writes them: a function's body
opens with a brace at file level after its declarator's closing
parenthesis; comments, strings and preprocessor lines are skipped. Every
function over MAX is printed with its file, line and length, and the exit
status is 1; otherwise the longest few and the count are printed.
"""

import glob
import os
import re
import sys

IDENT = re.compile(r'[A-Za-z_]\w*')


def code_chars(text):
    """(line, char) of the text's code: no comments, strings, # lines"""
    i, line, n = 0, 1, len(text)
    bol = True
    while i < n:
        c = text[i]
        if c == '\n':
            yield line, ' '
            line += 1
            bol = True
            i += 1
            continue
        if bol and c in ' \t':
            i += 1
            continue
        if bol and c == '#':
            # a preprocessor line, with its continuations
            while i < n and text[i] != '\n':
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    line += 1
                    i += 1
                i += 1
            continue
        bol = False
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            line += text.count('\n', i, end)
            i = end
            continue
        if text.startswith('//', i):
            while i < n and text[i] != '\n':
                i += 1
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            yield line, '0'
            i = j + 1
            continue
        yield line, c
        i += 1


def functions(path):
    """[(name, first line, last line)] of the file's function bodies"""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    found = []
    depth = paren = 0
    word, last_word, last_sig = '', '', None
    prev = ''
    start = None
    for line, c in code_chars(text):
        if c.isalnum() or c == '_':
            word += c
            continue
        if word:
            last_word, word = (word, line), ''
        if c.isspace():
            continue
        if depth == 0:
            if c == '(':
                if paren == 0 and last_word:
                    last_sig = last_word
                paren += 1
            elif c == ')':
                paren -= 1
            elif c == ';':
                last_sig = None
            elif c == '{':
                if prev == ')' and paren == 0 and last_sig is not None:
                    start = last_sig
                depth += 1
            elif c == '}':
                depth -= 1
        elif c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                if start is not None:
                    found.append((start[0], start[1], line))
                start, last_sig = None, None
        prev = c
    return found


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bound = int(sys.argv[1])
    paths = []
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):
            paths += sorted(glob.glob(os.path.join(arg, '*.[ch]')))
        else:
            paths.append(arg)
    rows = []
    for path in paths:
        for name, first, last in functions(path):
            rows.append((last - first + 1, path, first, name))
    rows.sort(reverse=True)
    over = [r for r in rows if r[0] > bound]
    for n, path, first, name in over:
        print('%s:%d: %s() is %d lines (more than %d)' % (path, first, name, n, bound))
    if over:
        print('%d function(s) over %d lines: split them by job' % (len(over), bound))
        return 1
    for n, path, first, name in rows[:5]:
        print('%s:%d: %s() %d lines' % (path, first, name, n))
    print('ok: %d functions in %d files, none over %d lines'
          % (len(rows), len(paths), bound))
    return 0


if __name__ == '__main__':
    sys.exit(main())
