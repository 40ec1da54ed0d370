// SPDX-License-Identifier: GPL-3.0-or-later
// MP4: H.264 (libx264 through libavcodec), 4:2:0 (yuv420p), BT.709 limited range, muxed by libavformat
// with the index (moov) at the front (+faststart), so PowerPoint, Keynote and browsers play it and a web
// page can start before the download ends. The muxer writes through a custom AVIOContext into an
// anonymous temporary file (faststart reopens it for a second pass, through io_open); finish() copies
// it through the safe writer. Memory: the encoder's look-ahead, whatever the frame count.
#include "io/animation/spool.h"
#include "io/animation/writers.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <cstring>
#include <vector>

namespace posatlas::animation_detail {
namespace {

#if LIBAVFORMAT_VERSION_MAJOR >= 61
using WriteBuffer = const std::uint8_t*;
#else
using WriteBuffer = std::uint8_t*;
#endif

std::string av_error(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

// A position of its own in the spool: the muxer's output, or faststart's reading pass.
struct SpoolCursor {
    Spool* spool = nullptr;
    std::int64_t position = 0;
    std::string error; // the spool's exception, kept: it must not cross FFmpeg's C code
};

int cursor_read(void* opaque, std::uint8_t* buffer, int size)
{
    auto* c = static_cast<SpoolCursor*>(opaque);
    try {
        const std::size_t n = c->spool->read_at(c->position, buffer, static_cast<std::size_t>(size));
        if (n == 0)
            return AVERROR_EOF;
        c->position += static_cast<std::int64_t>(n);
        return static_cast<int>(n);
    } catch (const std::exception& e) {
        c->error = e.what();
        return AVERROR(EIO);
    }
}

int cursor_write(void* opaque, WriteBuffer buffer, int size)
{
    auto* c = static_cast<SpoolCursor*>(opaque);
    try {
        c->spool->write_at(c->position, buffer, static_cast<std::size_t>(size));
        c->position += size;
        return size;
    } catch (const std::exception& e) {
        c->error = e.what();
        return AVERROR(EIO);
    }
}

std::int64_t cursor_seek(void* opaque, std::int64_t offset, int whence)
{
    auto* c = static_cast<SpoolCursor*>(opaque);
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return c->spool->size();
    case SEEK_SET: break;
    case SEEK_CUR: offset += c->position; break;
    case SEEK_END: offset += c->spool->size(); break;
    default: return AVERROR(EINVAL);
    }
    if (offset < 0)
        return AVERROR(EINVAL);
    c->position = offset;
    return offset;
}

AVIOContext* open_cursor(SpoolCursor* cursor, bool write)
{
    constexpr int kBuffer = 1 << 16;
    auto* buffer = static_cast<unsigned char*>(av_malloc(kBuffer));
    if (!buffer)
        return nullptr;
    AVIOContext* io = avio_alloc_context(buffer, kBuffer, write ? 1 : 0, cursor, cursor_read,
                                         write ? cursor_write : nullptr, cursor_seek);
    if (!io)
        av_free(buffer);
    return io;
}

void close_cursor(AVIOContext* io)
{
    if (!io)
        return;
    av_freep(&io->buffer);
    avio_context_free(&io);
}

class Mp4Writer final : public AnimationWriter
{
public:
    Mp4Writer(const std::string& path, AnimationCallbacks callbacks)
        : AnimationWriter(path, std::move(callbacks))
    {
    }
    ~Mp4Writer() override { release(); }

    void do_begin(int width, int height, int fps, std::int64_t hint) override
    {
        if (m_begun)
            fail("begin() called twice");
        check_parameters(AnimationFormat::Mp4, width, height, fps);
        m_width = width, m_height = height, m_fps = fps, m_hint = hint;
        m_begun = true;
        open();
    }

private:
    void open()
    {
        m_out = std::make_unique<SafeFileWriter>(m_path, m_callbacks.write);
        m_spool = std::make_unique<Spool>(m_path);
        m_cursor.spool = m_spool.get();

        // FFmpeg's libraries print progress and statistics at their default level (info); a failure
        // reaches the caller as an exception, so only their errors stay on stderr.
        if (av_log_get_level() == AV_LOG_INFO)
            av_log_set_level(AV_LOG_ERROR);
        const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
        if (!codec)
            fail("this FFmpeg has no H.264 encoder (libx264)");
        m_codec = avcodec_alloc_context3(codec);
        if (!m_codec)
            fail("out of memory");
        m_codec->width = m_width;
        m_codec->height = m_height;
        m_codec->pix_fmt = AV_PIX_FMT_YUV420P;
        m_codec->time_base = AVRational{1, m_fps};
        m_codec->framerate = AVRational{m_fps, 1};
        m_codec->gop_size = 2 * m_fps;
        m_codec->color_range = AVCOL_RANGE_MPEG;
        m_codec->color_primaries = AVCOL_PRI_BT709;
        m_codec->color_trc = AVCOL_TRC_BT709;
        m_codec->colorspace = AVCOL_SPC_BT709;
        m_codec->thread_count = 0; // as many as the CPUs
        check(avformat_alloc_output_context2(&m_format, nullptr, "mp4", nullptr), "MP4 muxer");
        if (m_format->oformat->flags & AVFMT_GLOBALHEADER)
            m_codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        AVDictionary* options = nullptr;
        // High profile, constant quality 10, "veryfast" (docs/benchmarks.md). Figures are flat colours,
        // thin lines and small text: at 18 (visually lossless for photographs) a spectrum figure came back at
        // 38.5 dB against its still export; at 10 above 40 dB, for a file that stays small (flat areas cost
        // nothing).
        av_dict_set(&options, "preset", "veryfast", 0);
        av_dict_set(&options, "crf", "10", 0);
        av_dict_set(&options, "profile", "high", 0);
        const int opened = avcodec_open2(m_codec, codec, &options);
        av_dict_free(&options);
        check(opened, "H.264 encoder");

        m_stream = avformat_new_stream(m_format, nullptr);
        if (!m_stream)
            fail("out of memory");
        check(avcodec_parameters_from_context(m_stream->codecpar, m_codec), "H.264 encoder");
        m_stream->time_base = m_codec->time_base;
        m_stream->avg_frame_rate = m_codec->framerate;

        m_io = open_cursor(&m_cursor, true);
        if (!m_io)
            fail("out of memory");
        m_format->pb = m_io;
        m_format->flags |= AVFMT_FLAG_CUSTOM_IO;
        m_format->opaque = this;
        m_format->url = av_strdup(m_path.c_str());
        m_format->io_open = &Mp4Writer::io_open;
        m_format->io_close2 = &Mp4Writer::io_close2;
        AVDictionary* muxer = nullptr;
        av_dict_set(&muxer, "movflags", "+faststart", 0);
        const int header = avformat_write_header(m_format, &muxer);
        av_dict_free(&muxer);
        check(header, "MP4 muxer");

        m_frame = av_frame_alloc();
        m_packet = av_packet_alloc();
        if (!m_frame || !m_packet)
            fail("out of memory");
        m_frame->format = AV_PIX_FMT_YUV420P;
        m_frame->width = m_width;
        m_frame->height = m_height;
        m_frame->color_range = AVCOL_RANGE_MPEG;
        m_frame->colorspace = AVCOL_SPC_BT709;
        check(av_frame_get_buffer(m_frame, 0), "frame buffer");
        m_sws =
            sws_getContext(m_width, m_height, AV_PIX_FMT_RGB24, m_width, m_height, AV_PIX_FMT_YUV420P,
                           SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr, nullptr, nullptr);
        if (!m_sws)
            fail("no RGB to YUV 4:2:0 conversion in this libswscale");
        const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
        sws_setColorspaceDetails(m_sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
        m_rgb.resize(static_cast<std::size_t>(m_width) * static_cast<std::size_t>(m_height) * 3);
    }

    void do_add_frame(const std::uint8_t* rgba, std::ptrdiff_t stride) override
    {
        if (!m_begun || !m_out)
            fail("add_frame() outside begin() ... finish()");
        if (stride < static_cast<std::ptrdiff_t>(m_width) * 4)
            fail("frame rows " + std::to_string(stride) + " bytes apart, fewer than 4 x width");
        const std::size_t row = static_cast<std::size_t>(m_width) * 3;
        for (int y = 0; y < m_height; ++y)
            rgba_over_white(rgba + y * stride, m_width, m_rgb.data() + static_cast<std::size_t>(y) * row);
        check(av_frame_make_writable(m_frame), "frame buffer");
        const std::uint8_t* planes[1] = {m_rgb.data()};
        const int strides[1] = {static_cast<int>(row)};
        sws_scale(m_sws, planes, strides, 0, m_height, m_frame->data, m_frame->linesize);
        m_frame->pts = m_frames;
        check(avcodec_send_frame(m_codec, m_frame), "H.264 encoder");
        drain();
        frame_done();
    }

    void do_finish() override
    {
        if (!m_begun || !m_out)
            fail("finish() without begin()");
        if (m_frames == 0)
            throw ParameterError("frames", "at least 1", "0");
        check(avcodec_send_frame(m_codec, nullptr), "H.264 encoder");
        drain();
        finish_progress(0.3);
        check(av_write_trailer(m_format), "MP4 muxer"); // faststart: the index moved to the front here
        avio_flush(m_io);
        if (!m_cursor.error.empty())
            fail(m_cursor.error);
        finish_progress(0.5);
        m_spool->copy_to(*m_out, [this](double f) { finish_progress(0.5 + 0.5 * f); });
        m_out->commit();
        release();
        report_progress(m_callbacks.progress, 1.0);
    }

    void drain()
    {
        for (;;) {
            const int got = avcodec_receive_packet(m_codec, m_packet);
            if (got == AVERROR(EAGAIN) || got == AVERROR_EOF)
                return;
            check(got, "H.264 encoder");
            av_packet_rescale_ts(m_packet, m_codec->time_base, m_stream->time_base);
            m_packet->stream_index = m_stream->index;
            check(av_interleaved_write_frame(m_format, m_packet), "MP4 muxer");
        }
    }

    void check(int code, const char* what)
    {
        if (code >= 0)
            return;
        if (!m_cursor.error.empty())
            fail(m_cursor.error);
        fail(std::string(what) + ": " + av_error(code));
    }

    // faststart's second pass opens the output again to read it: a cursor of its own on the spool.
    static int io_open(AVFormatContext* s, AVIOContext** pb, const char*, int flags, AVDictionary**)
    {
        auto* self = static_cast<Mp4Writer*>(s->opaque);
        auto& cursor = self->m_extra.emplace_back(std::make_unique<SpoolCursor>());
        cursor->spool = self->m_spool.get();
        *pb = open_cursor(cursor.get(), (flags & AVIO_FLAG_WRITE) != 0);
        return *pb ? 0 : AVERROR(ENOMEM);
    }

    static int io_close2(AVFormatContext*, AVIOContext* pb)
    {
        close_cursor(pb);
        return 0;
    }

    void release() noexcept override
    {
        if (m_format && m_format->pb == m_io)
            m_format->pb = nullptr;
        close_cursor(m_io);
        m_io = nullptr;
        avformat_free_context(m_format);
        m_format = nullptr;
        avcodec_free_context(&m_codec);
        av_frame_free(&m_frame);
        av_packet_free(&m_packet);
        sws_freeContext(m_sws);
        m_sws = nullptr;
        m_out.reset(); // an unfinished file: removed, the old one untouched
        m_spool.reset();
    }

    std::unique_ptr<SafeFileWriter> m_out;
    std::unique_ptr<Spool> m_spool;
    SpoolCursor m_cursor;
    std::vector<std::unique_ptr<SpoolCursor>> m_extra;
    AVCodecContext* m_codec = nullptr;
    AVFormatContext* m_format = nullptr;
    AVStream* m_stream = nullptr;
    AVIOContext* m_io = nullptr;
    AVFrame* m_frame = nullptr;
    AVPacket* m_packet = nullptr;
    SwsContext* m_sws = nullptr;
    std::vector<std::uint8_t> m_rgb;
};

} // namespace

std::unique_ptr<AnimationWriter> make_mp4_writer(const std::string& path, AnimationCallbacks callbacks)
{
    return std::make_unique<Mp4Writer>(path, std::move(callbacks));
}

} // namespace posatlas::animation_detail
