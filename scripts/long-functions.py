#!/usr/bin/env python3
"""Lists functions, initializers, deinitializers and subscripts in Sources/ longer than a
limit (default 80 lines, from the declaration's line to its body's closing brace). Exits 1
when any is found. Counts braces outside strings and comments; a declaration without a body
(a protocol requirement) is not counted. Good enough for this tree's style.

usage: scripts/long-functions.py [LIMIT] [PATH ...]"""
import re
import sys
from pathlib import Path

DECLARATION = re.compile(r'^\s*(?:@[\w()., :]+\s+)*(?:(?:public|package|internal|private|fileprivate|open|static|class|final|'
                         r'override|mutating|nonmutating|nonisolated|convenience|required|dynamic|isolated)\s+)*'
                         r'(?:func\s+[^\s(<]+|init[?!]?|deinit|subscript)\b')


def code_only(line, in_block_comment):
    """The line with strings and comments blanked, and whether a block comment is still open."""
    out, i, in_string = [], 0, False
    while i < len(line):
        if in_block_comment:
            end = line.find('*/', i)
            if end < 0:
                return ''.join(out), True
            i, in_block_comment = end + 2, False
            continue
        c = line[i]
        if in_string:
            if c == '\\':
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
            continue
        if line.startswith('//', i):
            break
        if line.startswith('/*', i):
            in_block_comment, i = True, i + 2
            continue
        if c == '"':
            in_string = True
        out.append(c)
        i += 1
    return ''.join(out), in_block_comment


def long_functions(path, limit):
    lines = path.read_text().split('\n')
    found, stack, depth, in_comment = [], [], 0, False
    pending = None  # (depth, line, text) of a declaration whose body has not opened yet
    parens = 0
    multiline_string = False
    for number, raw in enumerate(lines, 1):
        if raw.count('"""') % 2 == 1:
            multiline_string = not multiline_string
            continue
        if multiline_string:
            continue
        code, in_comment = code_only(raw, in_comment)
        if DECLARATION.match(code):
            pending, parens = (depth, number, raw.strip()), 0  # replaces one that had no body
        for c in code:
            if c in '([':
                parens += 1
            elif c in ')]':
                parens -= 1
            elif c == '{':
                # The body opens at the declaration's depth, outside its parameter list
                # (a default argument's closure is inside the parentheses).
                if pending and pending[0] == depth and parens <= 0:
                    stack.append(pending)
                    pending = None
                depth += 1
            elif c == '}':
                depth -= 1
                if pending and depth < pending[0]:
                    pending = None  # the enclosing type ended: it was a requirement
                if stack and stack[-1][0] == depth:
                    start_depth, start, text = stack.pop()
                    if number - start + 1 > limit:
                        found.append((number - start + 1, f'{path}:{start}', text[:90]))
    return found


def main():
    args = sys.argv[1:]
    limit = int(args.pop(0)) if args and args[0].isdigit() else 80
    roots = [Path(a) for a in args] or [Path('Sources')]
    found = []
    for root in roots:
        for path in sorted(root.rglob('*.swift')) if root.is_dir() else [root]:
            found += long_functions(path, limit)
    for length, where, text in sorted(found, reverse=True):
        print(f'{length:4} {where}  {text}')
    if found:
        print(f'{len(found)} function(s) over {limit} lines', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
