#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The translation sources (.ts) and their check, in one place.

  translations.py update LUPDATE ROOT      bring resources/translations/*.ts up to date with the code
  translations.py check  LUPDATE ROOT WORK fail on any string without a finished Chinese translation

Every string that core/, ui/ and app/ mark for translation (tr(), QT_TRANSLATE_NOOP,
QCoreApplication::translate with literals) lands in each .ts; strings the code no longer has are dropped.
Chinese is a full translation. English is the source language, so its file carries only plural forms.
`check` runs `update` on copies of the shipped files, so a string added to the code without its
translation fails it, as does an unfinished or empty entry. Translate with Qt Linguist
(`linguist resources/translations/posatlas_zh_CN.ts`) or any XML editor."""
import shutil, subprocess, sys, xml.etree.ElementTree as ET
from pathlib import Path

FILES = {'posatlas_zh_CN.ts': [], 'posatlas_en.ts': ['-pluralonly']}


def update(lupdate, root, ts_dir):
    for name, extra in FILES.items():
        subprocess.run([lupdate, 'core', 'ui', 'app', '-ts', str(Path(ts_dir) / name), '-no-obsolete',
                        '-locations', 'none', '-silent', *extra], cwd=root, check=True)


# Words a Chinese class reads wrongly, and the terms it expects instead (注意力分数 for logits, before the
# softmax; 注意力权重 after it).
AVOID = {'得分': '注意力分数 / 分数', '一袋词': '词袋', '频率谱': '频谱', '键词': '键'}


def problems(ts_file, full):
    out = []
    for context in ET.parse(ts_file).getroot().iter('context'):
        name = context.findtext('name')
        for message in context.iter('message'):
            source = message.findtext('source')
            tr = message.find('translation')
            kind = tr.get('type') if tr is not None else 'missing'
            forms = [f.text for f in tr.iter('numerusform')] if tr is not None else []
            text = (tr.text or '') if tr is not None else ''
            if kind in ('unfinished', 'missing', 'vanished', 'obsolete'):
                out.append(f'[{name}] "{source}": {kind}')
            elif full and not (text.strip() or any(f and f.strip() for f in forms)):
                out.append(f'[{name}] "{source}": empty')
            for word, instead in (AVOID.items() if full else []):
                if word in text or any(f and word in f for f in forms):
                    out.append(f'[{name}] "{source}": says {word}, write {instead}')
    return out


def main():
    mode, lupdate, root = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    shipped = root / 'resources' / 'translations'
    if mode == 'update':
        update(lupdate, root, shipped)
        return 0
    work = Path(sys.argv[4])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name in FILES:
        shutil.copy(shipped / name, work / name)
    update(lupdate, root, work)
    bad = []
    for name in FILES:
        found = problems(work / name, full=(name == 'posatlas_zh_CN.ts'))
        count = sum(1 for _ in ET.parse(work / name).getroot().iter('message'))
        print(f'{name}: {count} messages, {len(found)} without a finished translation')
        bad += [f'{name} {p}' for p in found]
    if bad:
        print('Strings without a translation (run `make translations`, then translate them):', file=sys.stderr)
        for p in bad:
            print('  ' + p, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
