// SPDX-License-Identifier: GPL-3.0-or-later
// Animated figures: a sequence of RGBA frames written as MP4 (H.264), GIF or APNG. Qt-free; the renderer,
// the command line and the GUI feed it frames one at a time.
//
//   auto writer = make_animation_writer(AnimationFormat::Mp4, "rotation.mp4", {.cancel = c, .progress = p});
//   writer->begin(1280, 720, 30, 60);          // parameters checked here (ParameterError), file opened
//   for (each frame) writer->add_frame(rgba, stride);
//   writer->finish();                          // the file appears, whole, only now
//
// Streaming: memory is bounded by a few frames whatever the frame count. What must wait for the last
// frame (the GIF's global palette, the APNG's frame count in acTL, the MP4's index moved to the front)
// is spooled to an anonymous temporary file, not kept in memory.
//
// The file is written through SafeFileWriter (io/safe_write.h): whole or not at all. An exception from
// any member, a cancel, or a writer destroyed before finish() leaves no file, and a file already at the
// path stays as it was. After an exception the writer is finished: destroy it.
//
// Errors: ParameterError (scenario/types.h) from begin() for a size or fps a format cannot take, naming
// the parameter ("width", "height", "fps", "frames") and its allowed range; OutputFileError
// ("cannot write PATH: REASON") for everything else, the encoder's or the system's reason included;
// Cancelled when `cancel` returned true (polled in add_frame() and finish()).
#pragma once

#include "io/safe_write.h"
#include "scenario/types.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace posatlas {

enum class AnimationFormat { Mp4, Gif, Apng };

// "mp4", "gif", "apng"; for messages and file dialogs.
const char* animation_format_name(AnimationFormat format);
// The format a file name asks for by its extension (.mp4, .gif, .png/.apng; any case), or nullopt.
std::optional<AnimationFormat> animation_format_from_path(std::string_view path);

// What each format accepts (ParameterError from begin() outside it).
struct AnimationLimits {
    int max_side = 0;        // width and height from 1 (MP4: from 2) to this
    bool even_sides = false; // MP4: H.264 in 4:2:0 needs even width and height
    int min_fps = 1;
    int max_fps = 0; // GIF: 50 (its delays are whole hundredths of a second; below 2 players slow down)
};
AnimationLimits animation_limits(AnimationFormat format);

struct AnimationCallbacks {
    // Polled between frames and during finish(); true: stop, throw Cancelled, leave no file.
    CancelFn cancel;
    // The completed fraction in [0, 1], on the calling thread: frames added over the frame-count hint
    // (up to 0.9 when the hint is 0 or exceeded), then finish()'s own work up to 1.
    ProgressFn progress;
    SafeWriteOptions write;
};

class AnimationWriter
{
public:
    virtual ~AnimationWriter() = default;
    AnimationWriter(const AnimationWriter&) = delete;
    AnimationWriter& operator=(const AnimationWriter&) = delete;

    // Checks the size and rate against animation_limits(), then opens the output. `frame_count_hint`:
    // the number of frames the caller expects (0: unknown), for progress only.
    void begin(int width, int height, int fps, std::int64_t frame_count_hint = 0);
    // One frame, width x height pixels of 4 bytes R, G, B, A (straight alpha), rows `stride` bytes apart
    // (at least 4 * width). Copied or encoded before it returns: the buffer may be reused. GIF and MP4
    // have no alpha channel: pixels are composited over white.
    void add_frame(const std::uint8_t* rgba, std::ptrdiff_t stride);
    // Writes what remains and commits the file. At least one frame ("frames must be at least 1").
    void finish();

    const std::string& path() const { return m_path; }
    std::int64_t frames_added() const { return m_frames; }

protected:
    AnimationWriter(std::string path, AnimationCallbacks callbacks)
        : m_path(std::move(path)), m_callbacks(std::move(callbacks))
    {
    }
    // The formats' work behind begin(), add_frame() and finish(). When one throws, the base calls release()
    // and rethrows: whole or not at all is kept in one place.
    virtual void do_begin(int width, int height, int fps, std::int64_t frame_count_hint) = 0;
    virtual void do_add_frame(const std::uint8_t* rgba, std::ptrdiff_t stride) = 0;
    virtual void do_finish() = 0;
    // Drops the unfinished output (its SafeFileWriter destroyed uncommitted: no file, an existing one as it
    // was) and whatever else the format holds. Must not throw.
    virtual void release() noexcept = 0;
    // begin()'s checks, shared by the formats: throws ParameterError.
    void check_parameters(AnimationFormat format, int width, int height, int fps) const;
    // Runs one of the do_ members; on an exception, release() then rethrow.
    template <typename Work> void guarded(Work&& work)
    {
        try {
            work();
        } catch (...) {
            release();
            throw;
        }
    }
    [[noreturn]] void fail(const std::string& reason) const { throw OutputFileError(m_path, reason); }
    // Polls cancel and reports progress after a frame (counts it).
    void frame_done();
    void finish_progress(double fraction_of_finish) const;

    std::string m_path;
    AnimationCallbacks m_callbacks;
    int m_width = 0, m_height = 0, m_fps = 0;
    std::int64_t m_hint = 0;
    std::int64_t m_frames = 0;
    bool m_begun = false;
};

// A writer for `format` to `path`. Nothing is opened until begin().
std::unique_ptr<AnimationWriter> make_animation_writer(AnimationFormat format, const std::string& path,
                                                       AnimationCallbacks callbacks = {});

} // namespace posatlas
