#!/usr/bin/env bash
# A broad sample of real-world office files for the office benchmark (issue 44): the Word,
# Excel, PowerPoint, OpenDocument and RTF files that ship in the source packages of ten Python
# projects on PyPI (test files saved by Microsoft Office, LibreOffice and other programs, many
# from those projects' bug reports; oletools' include documents with macros), plus
# LibreOffice's own templates and wizard documents (installed with LibreOffice).
#
#   bench/office-corpus.sh DIR
#
# DIR receives the files flat, each named NNN-SOURCE-NAME (unique stems, so one
# `soffice --convert-to png --outdir` writes one PNG per file). The archives are pinned by
# SHA-256 and kept under ${XDG_CACHE_HOME:-$HOME/.cache}/quire-bench/pypi: the network is used
# once, by this benchmark script, never by Quire. Prints the count per extension.
set -euo pipefail
dir=${1:?usage: bench/office-corpus.sh DIR}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/quire-bench/pypi
mkdir -p "$cache" "$dir"
python=/usr/bin/python3
[ -x "$python" ] || python=python3

# project  file  sha256  (files.pythonhosted.org paths as PyPI's simple index gives them)
archives='
python-docx python_docx-1.2.0.tar.gz a9/f7/eddfe33871520adab45aaa1a71f0402a2252050c14c7e3009446c8f4701c 7bc9d7b7d8a69c9c02ca09216118c86552704edc23bac179283f2e38f86220ce
python-pptx python_pptx-1.0.2.tar.gz 52/a9/0c0db8d37b2b8a645666f7fd8accea4c6224e013c42b1d5c17c93590cd06 479a8af0eaf0f0d76b6f00b0887732874ad2e3188230315290cd1f9dd9cc7095
oletools oletools-0.60.2.zip 5c/2f/037f40e44706d542b94a2312ccc33ee2701ebfc9a83b46b55263d49ce55a ad452099f4695ffd8855113f453348200d195ee9fa341a09e197d66ee7e0b2c3
odfpy odfpy-1.4.1.tar.gz 97/73/8ade73f6749177003f7ce3304f524774adda96e6aaab30ea79fd8fda7934 db766a6e59c5103212f3cc92ec8dd50a0f3a02790233ed0b52148b70d3c438ec
xlsx2csv xlsx2csv-0.8.6.tar.gz 62/36/9d53c4a72dcdc08fcf46f3d02f71f22bc693bb66e87bd935e0c9668500ad 618fc502612860de8ab8e3d6195e99ef332fffc68337f6b89e59690aad0d20b5
tablib tablib-3.10.0.tar.gz 96/b9/59d9c8b9c34642e7a718e8a1a7a91af3eb9b48f79bac794263702d41519c 781cfa9a42de8f33c52aff857fd0a04e483de4fd1c53eaaa9a6aeac62bad11de
ezodf ezodf-0.3.2.tar.gz 6f/c5/e966935c26d58d7e3d962270be61be972409084374d4093f478d1f82e8af 000da534f689c6d55297a08f9e2ed7eada9810d194d31d164388162fb391122d
pyexcel-ods3 pyexcel-ods3-0.6.1.tar.gz 68/49/6fa598189a41f75f87b4fa964cdc185dade813d20c241266a790ad91bde5 53740fc9bc6e91e43cdc0ee4f557bb3b252d8493d34f2c11d26a93c53cfebc2e
olefile olefile-0.47.zip 69/1b/077b508e3e500e1629d366249c3ccb32f95e50258b231705c09e3c7a4366 599383381a0bf3dfbd932ca0ca6515acd174ed48870cbf7fee123d698c192c1c
relatorio relatorio-1.0.0.tar.gz f2/01/6adc533f1fd27f27934644e6c29a2e029b6341e5dcf19fdb6ddbfce37488 18a0e8c47209a3d6b565c1136730ff149207c1ae7548f5f954382c9498237f42
'
while read -r project file path sha; do
  [ -n "$project" ] || continue
  if ! echo "$sha  $cache/$file" | sha256sum -c --status 2>/dev/null; then
    curl -fsSL --retry 3 -o "$cache/$file.part" "https://files.pythonhosted.org/packages/$path/$file"
    echo "$sha  $cache/$file.part" | sha256sum -c --status || { echo "office-corpus: $file does not match its SHA-256" >&2; exit 65; }
    mv "$cache/$file.part" "$cache/$file"
  fi
done <<<"$archives"

# Unpack the office members of every archive (by extension) and LibreOffice's templates, flat.
"$python" -I - "$cache" "$dir" <<'PY'
import os, re, sys, tarfile, zipfile, shutil
cache, out = sys.argv[1], sys.argv[2]
office = re.compile(r"\.(docx?|docm|dotx?|dotm|xlsx?|xlsm|xlsb|xltx|pptx?|pptm|ppsx?|potx|odt|ods|odp|odg|ott|ots|otp|otg|rtf)$", re.I)
count = 0
def put(source, name, data):
    global count
    count += 1
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(name))
    with open(os.path.join(out, "%03d-%s-%s" % (count, source, stem)), "wb") as f:
        f.write(data)
for archive in sorted(os.listdir(cache)):
    path = os.path.join(cache, archive)
    source = re.sub(r"[-_][0-9][^-_]*\.(tar\.gz|zip)$", "", archive)
    if archive.endswith(".tar.gz"):
        with tarfile.open(path) as t:
            for m in sorted(t.getmembers(), key=lambda m: m.name):
                if m.isfile() and office.search(m.name):
                    put(source, m.name, t.extractfile(m).read())
    elif archive.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for name in sorted(z.namelist()):
                if not name.endswith("/") and office.search(name):
                    put(source, name, z.read(name))
templates = "/usr/lib/libreoffice/share/template"
for root, _, files in sorted(os.walk(templates)):
    for name in sorted(files):
        if office.search(name):
            with open(os.path.join(root, name), "rb") as f:
                put("libreoffice-template", name, f.read())
PY
find "$dir" -type f | sed 's/.*\.//' | tr 'A-Z' 'a-z' | sort | uniq -c | awk '{ printf "%s %s  ", $2, $1 } END { print "" }'
echo "$(find "$dir" -type f | wc -l) files"
