import Foundation
import Testing
@testable import QuireRender
import QuireTypes
import QuireTestSupport

/// The media engine on clips Samples/media.sh makes with GStreamer: video frames, the poster
/// past a black opening, audio covers and cards, damaged and over-large input.
@Suite struct MediaRenderingTests {
    /// Inked pixels of an audio card 480 px wide in `columns`, above the waveform's middle line
    /// (y 413), where only loud slices reach.
    static func waveformInk(_ card: RenderedImage, columns: Range<Int>) -> Int {
        var count = 0
        for y in 375..<405 { for column in columns where card.pixel(x: column, y: y).green < 200 { count += 1 } }
        return count
    }

    static func meanBrightness(_ image: RenderedImage) -> Double {
        var sum = 0.0, count = 0.0
        for y in stride(from: 0, to: image.height, by: 4) {
            for x in stride(from: 0, to: image.width, by: 4) {
                let p = image.pixel(x: x, y: y)
                sum += (Double(p.red) + Double(p.green) + Double(p.blue)) / 3
                count += 1
            }
        }
        return sum / count
    }

    @Test func aClipSaysItsDurationSizeRateAndCodec() throws {
        let file = try SampleFiles.open("media/clip.webm")
        let type = try ContentType.detect(file)
        #expect(type.mimeType == "video/webm")
        #expect(type.family == .video)
        #expect(type.capabilities.print.reason == "Quire does not print video (WebM video)")
        let info = try MediaInfo.read(file)
        #expect(abs((info.duration ?? 0) - 4) < 0.1)
        #expect(info.width == 320 && info.height == 240)
        #expect(abs((info.frameRate ?? 0) - 25) < 0.01)
        #expect(info.videoCodec == "VP8")
        #expect(info.container == "WebM")
        #expect(info.audioCodec == nil)
    }

    @Test func thePosterSkipsTheBlackOpeningAndTheStripFollowsTheDuration() throws {
        let renderer = try SampleFiles.renderer("media/clip.webm")
        #expect(renderer.pageCount == 1 + VideoSource.stripFrames)
        #expect(renderer.pageSize(at: 0) == PageSize(width: 320, height: 240))
        let poster = try renderer.render(page: 0)
        #expect(poster.width == 320 && poster.height == 240)
        #expect(Self.meanBrightness(poster) > 60)
        // Colour bars: the first bar is light, the third cyan.
        #expect(poster.pixel(x: 20, y: 60).green > 150)
        #expect(poster.pixel(x: 110, y: 60).isClose(to: 0, 255, 255, tolerance: 24))
        // Page 2 is the frame at 4/9 s: still in the black first second.
        #expect(Self.meanBrightness(try renderer.render(page: 1)) < 20)
        // Page 9 (at 32/9 s) shows the bars.
        #expect(Self.meanBrightness(try renderer.render(page: 8)) > 60)
        // The thumbnail is the poster.
        let thumbnail = try renderer.renderThumbnail(longestSide: 128)
        #expect(thumbnail.width == 128 && thumbnail.height == 96)
        #expect(Self.meanBrightness(thumbnail) > 60)
    }

    /// The title is the file's, not a track's: a WebM whose sound track is named "Audio" has no
    /// title (Matroska's segment title is the file's), while an Ogg file's Vorbis comments are
    /// its own.
    @Test func aTracksNameIsNotTheFilesTitle() throws {
        let webm = try MediaInfo.read(try SampleFiles.open("media/with-sound.webm"))
        #expect(webm.title == nil, "\(webm.title ?? "")")
        let mkv = try MediaInfo.read(try SampleFiles.open("media/audio-only.mkv"))
        #expect(mkv.title == nil, "\(mkv.title ?? "")")
        let ogg = try MediaInfo.read(try SampleFiles.open("media/titled.ogg"))
        #expect(ogg.title == "Harbour Song" && ogg.artist == "The Samples")
    }

    @Test func anAudioFileShowsItsCoverAndTags() throws {
        let file = try SampleFiles.open("media/song.mp3")
        #expect(try ContentType.detect(file).family == .audio)
        let info = try MediaInfo.read(file)
        #expect(info.title == "Quire Test Tone")
        #expect(info.artist == "The Samples")
        #expect(info.album == "Generated")
        #expect(info.trackNumber == 7)
        #expect(info.hasCover)
        #expect(info.audioCodec?.contains("MP3") == true)
        let renderer = try SampleFiles.renderer("media/song.mp3")
        #expect(renderer.embeddedPreviewName == "cover")
        let cover = try renderer.render(page: 0)
        #expect(cover.width == 300 && cover.height == 300)
        #expect(cover.pixel(x: 150, y: 150).isClose(to: 200, 40, 40, tolerance: 4))
    }

    @Test(arguments: ["media/tone.ogg", "media/audio-only.mkv"])
    func audioWithoutACoverIsACardOfItsTags(name: String) throws {
        let renderer = try SampleFiles.renderer(name)
        #expect(renderer.pageCount == 1)
        #expect(renderer.pageSize(at: 0) == PageSize(width: AudioCardSource.side, height: AudioCardSource.side))
        let card = try renderer.render(page: 0, size: .width(480))
        // The note in the band, the file's name or title under it.
        var ink = 0
        for y in 200..<300 { for x in 40..<440 where card.pixel(x: x, y: y).green < 100 { ink += 1 } }
        #expect(ink > 300)
        #expect(card.pixel(x: 5, y: 5).isClose(to: 237, 240, 247, tolerance: 3))
    }

    /// Without a cover, the card carries the waveform: 2 s of silence then 2 s of a loud tone
    /// give a quiet first half and a loud second half.
    @Test func audioWithoutACoverShowsItsWaveform() throws {
        let file = try SampleFiles.open("media/half-silent.ogg")
        let info = try MediaInfo.read(file)
        let duration = try #require(info.duration)
        let peaks = try #require(AudioPeaks.read(file, duration: duration, buckets: 40, budget: 10))
        #expect(peaks.count == 40)
        #expect(peaks[2..<16].allSatisfy { $0 < 0.05 }, "\(peaks)")
        #expect(peaks[24..<38].allSatisfy { $0 > 0.4 }, "\(peaks)")
        // On the card: bars under the second half, none under the first.
        let card = try SampleFiles.renderer("media/half-silent.ogg").render(page: 0, size: .width(480))
        #expect(Self.waveformInk(card, columns: 60..<200) == 0, "quiet half")
        #expect(Self.waveformInk(card, columns: 280..<420) > 1500, "loud half")
        // A budget too short for the decode gives no waveform rather than part of one.
        #expect(AudioPeaks.read(file, duration: 4, buckets: 40, budget: 0) == nil)
    }

    /// A 10-hour recording (5 h of silence, then 5 h loud) is sampled — a seek into each slice
    /// and a quarter second decoded there — so it gets its waveform, with the halves where they
    /// are, where decoding it whole would not finish in the budget.
    @Test func aTenHourRecordingGetsItsWaveformBySampling() throws {
        let file = try SampleFiles.open("media/long.flac")
        let info = try MediaInfo.read(file)
        let duration = try #require(info.duration)
        #expect(abs(duration - 36_000) < 1)
        #expect(DurationText.clock(duration) == "10:00:00")
        #expect(duration > AudioPeaks.wholeDecodeLimit)
        let peaks = try #require(AudioPeaks.sample(file, duration: duration, buckets: 40, budget: 20).peaks)
        #expect(peaks.count == 40)
        #expect(peaks[0..<19].allSatisfy { $0 < 0.05 }, "\(peaks)")
        #expect(peaks[21..<40].allSatisfy { $0 > 0.4 }, "\(peaks)")
        // Sampling a short file slice by slice reads each slice's own sound (no buffer decoded
        // before a seek is taken for the slice after it): silence, then the tone from the middle.
        let short = try SampleFiles.open("media/half-silent.ogg")
        let sampled = try #require(AudioPeaks.sample(short, duration: 4, buckets: 40, budget: 20).peaks)
        #expect(sampled[1..<19].allSatisfy { $0 < 0.05 }, "\(sampled)")
        #expect(sampled[21..<39].allSatisfy { $0 > 0.4 }, "\(sampled)")
        // The card's waveform with the engine's own slices (a budget for a loaded test machine:
        // the engine's 2 s is the card's own, and ran out once under three test processes on two
        // cores; how the waveform is drawn is checked on half-silent.ogg's card above).
        let card = try AudioCardSource(path: file.path, info: info,
                                       waveform: AudioPeaks.waveform(file, duration: duration, buckets: AudioCardSource.waveformSlices, budget: 20))
        let slices = try #require(card.peaks)
        #expect(slices.count == AudioCardSource.waveformSlices && card.waveformNote == nil)
        #expect(slices[2..<(slices.count / 2 - 2)].allSatisfy { $0 < 0.05 }, "quiet half: \(slices)")
        #expect(slices[(slices.count / 2 + 2)..<(slices.count - 2)].allSatisfy { $0 > 0.4 }, "loud half: \(slices)")
    }

    /// Without the time to read the sound, the card says so where the waveform would be.
    @Test func aWaveformNotReadInTimeIsSaidOnTheCard() throws {
        let file = try SampleFiles.open("media/long.flac")
        let outcome = AudioPeaks.waveform(file, duration: 36_000, buckets: 40, budget: 0)
        #expect(outcome == .missing("No waveform: the sound could not be read in 0 s"))
        #expect(AudioPeaks.sample(file, duration: 36_000, buckets: 40, budget: 0) == outcome)
        let info = try MediaInfo.read(file)
        let source = try AudioCardSource(path: file.path, info: info, waveform: outcome)
        #expect(source.peaks == nil)
        #expect(source.waveformNote == "No waveform: the sound could not be read in 0 s")
    }

    /// A 10-hour video's poster and strip come from seeks: the frame at a third of the way (the
    /// colour bars) and the last of the strip, each found without decoding what comes before.
    @Test func aTenHourVideoGivesItsPosterBySeeking() throws {
        let info = try MediaInfo.read(SampleFiles.open("media/long.webm"))
        #expect(abs((info.duration ?? 0) - 36_000) < 6)
        let renderer = try SampleFiles.renderer("media/long.webm")
        #expect(renderer.pageCount == 1 + VideoSource.stripFrames)
        let poster = try renderer.render(page: 0)
        #expect(poster.width == 64 && poster.height == 48)
        #expect(poster.pixel(x: 4, y: 10).green > 150, "the first bar is light")
        #expect(Self.meanBrightness(try renderer.render(page: 8)) > 60)
    }

    /// A thumbnail is made from the frames' one pipeline (no discoverer): the poster past the
    /// black opening, the strip's length from the pipeline's duration; a Matroska file with only
    /// sound fails there and is opened the whole way, as the audio card.
    @Test func aVideosThumbnailComesFromOnePipeline() throws {
        let video = try SampleFiles.renderer("media/clip.webm", preferEmbeddedPreview: true)
        #expect(video.pageCount == 1 + VideoSource.stripFrames)
        let thumbnail = try video.renderThumbnail(longestSide: 128)
        #expect(thumbnail.width == 128 && thumbnail.height == 96)
        #expect(Self.meanBrightness(thumbnail) > 60)
        let audio = try SampleFiles.renderer("media/audio-only.mkv", preferEmbeddedPreview: true)
        #expect(audio.pageCount == 1)
        #expect(audio.pageSize(at: 0) == PageSize(width: AudioCardSource.side, height: AudioCardSource.side))
    }

    /// The poster test, as GNOME's thumbnailer judges: the spread of brightness alone — a black
    /// or uniformly grey frame is passed over, a black frame with a small bright ball in it (its
    /// mean brightness under 10 of 255) is not.
    @Test func aDarkFrameWithSomethingBrightInItIsAPoster() throws {
        func frame(background: UInt8, square: UInt8?) throws -> CairoImage {
            let width = 64, height = 48
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let value = (square != nil && (28..<36).contains(x) && (20..<28).contains(y)) ? square! : background
                    for channel in 0..<3 { bytes[(y * width + x) * 4 + channel] = value }
                }
            }
            return try bytes.withUnsafeBytes { raw throws(DocumentError) in
                try CairoImage(copyingBGRx: raw.baseAddress!, width: width, height: height, stride: width * 4,
                               path: DocumentPath("frame"))
            }
        }
        #expect(VideoSource.interest(of: try frame(background: 0, square: nil)) < VideoSource.interesting)
        #expect(VideoSource.interest(of: try frame(background: 90, square: nil)) < VideoSource.interesting)
        #expect(VideoSource.interest(of: try frame(background: 4, square: 250)) >= VideoSource.interesting)
    }

    /// A damaged WebM found by fuzz-thumbnail (Fuzz/corpus/thumbnail/slow-webm-vorbis-headers-never-link):
    /// its Vorbis stream's headers never finish, so nothing reaches the video sink and the
    /// pipeline never prerolls; GStreamer says so only in a warning. The frames' pipeline gives
    /// up at that warning as "no video stream" (it used to wait out the 10 s time-out, twice),
    /// and the thumbnail is the audio card the whole way gives.
    @Test func aVideoThatCannotLinkItsStreamFailsAtOnceAndIsShownAsAudio() throws {
        let path = Samples.repositoryRoot.appendingPathComponent("Fuzz/corpus/thumbnail/slow-webm-vorbis-headers-never-link").path
        let file = try InputFile(path: DocumentPath(path))
        do {
            _ = try VideoFrames(file: file, limits: .standard)
            Issue.record("a pipeline whose stream cannot reach the sink prerolled")
        } catch {
            #expect(error.kind == .damaged, "\(error)")
            #expect(error.reason == "it has no video stream that can be decoded")
        }
        let renderer = try Renderer(file: file, contentType: ContentType(mimeType: "video/webm"), password: nil,
                                    limits: .standard, preferEmbeddedPreview: true)
        #expect(renderer.pageCount == 1)
        #expect(renderer.pageSize(at: 0) == PageSize(width: AudioCardSource.side, height: AudioCardSource.side))
    }

    /// The other side of that: a video with a sound track leaves the sound pad unlinked too, but
    /// the video pad links, so no warning stops it and the poster is the video's.
    @Test func aVideoWithASoundTrackIsItsPoster() throws {
        let frames = try VideoFrames(file: try SampleFiles.open("media/with-sound.webm"), limits: .standard)
        #expect(!frames.unlinked && !frames.stalled)
        let frame = try #require(try frames.frame(at: 1))
        #expect(frame.width == 320 && frame.height == 240)
        let thumbnail = try SampleFiles.renderer("media/with-sound.webm", preferEmbeddedPreview: true)
        #expect(thumbnail.pageCount == 1 + VideoSource.stripFrames)
    }

    @Test func aMatroskaFileWithNoVideoStreamIsShownAsAudio() throws {
        let info = try MediaInfo.read(SampleFiles.open("media/audio-only.mkv"))
        #expect(!info.hasVideo)
        #expect(info.audioCodec == "Vorbis")
    }

    @Test func aTruncatedClipGivesTheFramesThatDecode() throws {
        let renderer = try SampleFiles.renderer("media/truncated.webm")
        let poster = try renderer.render(page: 0)
        #expect(poster.width == 320 && poster.height == 240)
    }

    @Test func bytesThatAreNoMediaAreRefusedWithAReason() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("noise.webm")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: url)
        let file = try InputFile(path: DocumentPath(url.path))
        #expect {
            _ = try Renderer(file: file, contentType: ContentType(mimeType: "video/webm"))
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .damaged || error.kind == .unsupported
        }
    }

    @Test func aVideoLargerThanThePixelLimitIsRefusedBeforeDecoding() throws {
        var limits = RenderLimits.standard
        limits.maximumImagePixels = 320 * 240 - 1
        #expect {
            _ = try SampleFiles.renderer("media/clip.webm", limits: limits)
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .limitExceeded && error.reason.contains("320×240")
        }
    }
}
