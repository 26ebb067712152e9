#!/usr/bin/env bash
# Video and audio samples for the media engine, made with GStreamer's gst-launch-1.0
# (gstreamer1.0-tools, -plugins-base, -plugins-good) into OUT/media/:
#   clip.webm         VP8, 4 s at 320×240: the first second black, then colour bars
#   tone.ogg          Vorbis, a 5 s tone, no tags, no cover
#   titled.ogg        Vorbis, 1 s, whose comments name its title and artist (Ogg's own way)
#   audio-only.mkv    Matroska holding only a Vorbis stream (a "video" file with no video)
#   song.mp3          MP3 with an ID3v2.3 tag: title, artist, album, track and a PNG cover (APIC)
#   truncated.webm    the first 20 kB of clip.webm
#   moving.webm       VP8, 6 s of a ball moving on black (playback: frames change)
#   with-sound.webm   VP8 and Vorbis, 2 s: a ball and a tone (the sound pad is left unlinked)
#   half-silent.ogg   Vorbis, 2 s of silence then 2 s of a loud tone (the waveform's two halves)
#   long.flac         FLAC, 8 kHz mono, 10 hours: 5 h of silence then 5 h of a level that changes
#                     sign every 5000 s (a square wave at 0.0001 Hz) — every block is constant,
#                     so it is ~0.5 MB and made in ~2 s; decoding it whole would take longer
#                     than the waveform's budget (it is sampled, seek by seek)
#   long.webm         VP8, 10 hours of colour bars at 64×48, one frame every 5 s (a key frame
#                     every 10 minutes): ~0.5 MB, made in under a second; posters by seeking
set -euo pipefail
out="$1/media"
mkdir -p "$out"
gst=(gst-launch-1.0 -q)
"${gst[@]}" concat name=c ! videoconvert ! vp8enc deadline=1 ! webmmux ! filesink location="$out/clip.webm" \
    videotestsrc num-buffers=25 pattern=black ! video/x-raw,width=320,height=240,framerate=25/1 ! c. \
    videotestsrc num-buffers=75 pattern=smpte ! video/x-raw,width=320,height=240,framerate=25/1 ! c.
"${gst[@]}" audiotestsrc num-buffers=215 ! audioconvert ! vorbisenc ! oggmux ! filesink location="$out/tone.ogg"
"${gst[@]}" audiotestsrc num-buffers=86 wave=sine freq=660 ! audioconvert ! vorbisenc ! matroskamux ! filesink location="$out/audio-only.mkv"
"${gst[@]}" audiotestsrc num-buffers=43 ! taginject 'tags="title=\"Harbour Song\",artist=\"The Samples\""' ! audioconvert ! vorbisenc \
    ! oggmux ! filesink location="$out/titled.ogg"
"${gst[@]}" audiotestsrc num-buffers=130 ! audioconvert ! lamemp3enc ! filesink location="$out/song-raw.mp3"
python3 - "$out" <<'PY'
import struct, sys, zlib
out = sys.argv[1]
def png(width, height, rgb):
    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
def frame(name, body):
    return name + struct.pack(">IH", len(body), 0) + body
def text(name, value):
    return frame(name, b"\x03" + value.encode())   # UTF-8
cover = png(300, 300, (200, 40, 40))               # a red square
apic = b"\x00" + b"image/png\x00" + b"\x03" + b"\x00" + cover   # Latin-1, front cover, no description
frames = text(b"TIT2", "Quire Test Tone") + text(b"TPE1", "The Samples") + text(b"TALB", "Generated") \
    + text(b"TRCK", "7") + frame(b"APIC", apic)
size = len(frames)
synchsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
with open(out + "/song.mp3", "wb") as song:
    song.write(b"ID3\x03\x00\x00" + synchsafe + frames + open(out + "/song-raw.mp3", "rb").read())
PY
rm "$out/song-raw.mp3"
head -c 20000 "$out/clip.webm" > "$out/truncated.webm"
"${gst[@]}" concat name=a ! audioconvert ! vorbisenc ! oggmux ! filesink location="$out/half-silent.ogg" \
    audiotestsrc num-buffers=86 wave=silence ! audio/x-raw,rate=44100,channels=1 ! a. \
    audiotestsrc num-buffers=86 volume=0.8 ! audio/x-raw,rate=44100,channels=1 ! a.
"${gst[@]}" videotestsrc num-buffers=150 pattern=ball ! video/x-raw,width=320,height=240,framerate=25/1 ! videoconvert \
    ! vp8enc deadline=1 ! webmmux ! filesink location="$out/moving.webm"
"${gst[@]}" webmmux name=m ! filesink location="$out/with-sound.webm" \
    videotestsrc num-buffers=50 pattern=ball ! video/x-raw,width=320,height=240,framerate=25/1 ! videoconvert ! vp8enc deadline=1 ! m. \
    audiotestsrc num-buffers=86 ! audioconvert ! vorbisenc ! m.
# The 10-hour files (blocks and buffers sized so the halves meet on a block boundary: flacenc
# aborts on a partial block between concat's inputs).
"${gst[@]}" concat name=l ! audioconvert ! flacenc blocksize=8000 streamable-subset=false ! filesink location="$out/long.flac" \
    audiotestsrc wave=silence samplesperbuffer=8000 num-buffers=18000 ! audio/x-raw,rate=8000,channels=1,format=S16LE ! l. \
    audiotestsrc wave=square freq=0.0001 volume=0.6 samplesperbuffer=8000 num-buffers=18000 ! audio/x-raw,rate=8000,channels=1,format=S16LE ! l.
"${gst[@]}" videotestsrc num-buffers=7200 pattern=smpte ! video/x-raw,width=64,height=48,framerate=1/5 ! videoconvert \
    ! vp8enc deadline=1 cpu-used=16 end-usage=cq cq-level=63 min-quantizer=60 max-quantizer=63 keyframe-max-dist=120 \
    ! webmmux ! filesink location="$out/long.webm"
