// SPDX-License-Identifier: GPL-3.0-or-later
// The formats' writers (one .cpp each) and what they share. Internal to io/animation/.
#pragma once

#include "io/animation/animation_writer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace posatlas::animation_detail {

std::unique_ptr<AnimationWriter> make_mp4_writer(const std::string& path, AnimationCallbacks callbacks);
std::unique_ptr<AnimationWriter> make_gif_writer(const std::string& path, AnimationCallbacks callbacks);
std::unique_ptr<AnimationWriter> make_apng_writer(const std::string& path, AnimationCallbacks callbacks);

// One row of straight-alpha RGBA composited over white into 3-byte RGB (GIF and MP4 have no alpha).
void rgba_over_white(const std::uint8_t* rgba, int width, std::uint8_t* rgb);

} // namespace posatlas::animation_detail
