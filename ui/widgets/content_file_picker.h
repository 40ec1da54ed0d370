// SPDX-License-Identifier: GPL-3.0-or-later
// Content vectors > From file...: the user picks a queries file and a keys file (.npy, .csv, or a
// .safetensors file and one of its 2-D tensors); the scenario then reads its content from them
// (scenario/content_file.h). Kept apart from the parameter panel, which only offers the entry.
#pragma once

#include "scenario/params.h"

#include <QString>

#include <optional>

class QWidget;

namespace posatlas::ui {

// Asks for the two files (and tensors); nullopt when the user cancels. The returned scenario is `s` with
// its queries and keys set; it is not validated here (the model validates it and reports a problem).
std::optional<Scenario> pick_content_files(QWidget* parent, const Scenario& s);

// "q.npy, k.npy" (file names, with their tensors): what captions and tooltips call the content.
QString content_files_text(const ContentParams& c);

} // namespace posatlas::ui
