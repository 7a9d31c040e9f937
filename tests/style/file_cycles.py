#!/usr/bin/env python3
"""No two of the library's source files call each other, directly or round
a longer loop: the files of machine/, sgl/ and algorithms/ form a graph in
which file A points to file B when A's object uses a symbol B's object
defines (nm), and every strongly connected component must be one file.

    file_cycles.py BUILD_DIR        prints the edges' count and each circle
"""
import collections, pathlib, subprocess, sys

build = pathlib.Path(sys.argv[1])
objs = sorted(p for part in ('machine', 'sgl', 'algorithms')
              for p in (build / part).glob('lib*.a.p/*.o'))
if not objs:
    sys.exit(f'file_cycles: no objects under {build}/{{machine,sgl,algorithms}}')

def source(o):
    lib = o.parent.parent.name           # the part's folder
    name = o.name[:-2]                   # "vector_reduce.c"
    return f'{lib}/' + name.replace('_', '/', 1) if lib == 'algorithms' and \
        name.split('_', 1)[0] in ('vector', 'darray', 'pregel') else f'{lib}/{name}'

def nm(o, flags):
    out = subprocess.run(['nm', *flags, str(o)], capture_output=True, text=True,
                         check=True).stdout
    return {l.split()[-1] for l in out.splitlines() if l.strip()}

defined, used = {}, {}
for o in objs:
    defined[o] = nm(o, ['--defined-only', '--extern-only'])
    used[o] = nm(o, ['--undefined-only'])
owner = {s: o for o in objs for s in defined[o]}
edges = collections.defaultdict(set)
for o in objs:
    for s in used[o]:
        if s in owner and owner[s] != o:
            edges[o].add(owner[s])

# Tarjan's strongly connected components, iteratively.
index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
def strong(v):
    work = [(v, iter(sorted(edges[v])))]
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    while work:
        node, it = work[-1]
        nxt = next(it, None)
        if nxt is None:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == node:
                        break
                comps.append(comp)
        elif nxt not in index:
            index[nxt] = low[nxt] = counter[0]; counter[0] += 1
            stack.append(nxt); on.add(nxt)
            work.append((nxt, iter(sorted(edges[nxt]))))
        elif nxt in on:
            low[node] = min(low[node], index[nxt])
for v in objs:
    if v not in index:
        strong(v)

circles = [sorted(source(o) for o in c) for c in comps if len(c) > 1]
print(f'{len(objs)} files, {sum(len(e) for e in edges.values())} arrows '
      f'between them, {len(circles)} circles')
for c in circles:
    print('circle: ' + ' <-> '.join(c))
sys.exit(1 if circles else 0)
