// SPDX-License-Identifier: GPL-3.0-or-later
// The editor of one numeric field of the method registry (core/methods/registry.h): a LogSlider whose
// range, log scale, decimals, step, "unset" text, tooltip and accessible name are the field's. One
// builder for every panel that edits registry fields (the parameter panel, the explorer's variant
// editors), so that a parameter has the same range and the same refusal everywhere: a typed value
// outside the range is clamped to the limit with a note naming the parameter and the limit
// (field_clamp_message).
#pragma once

#include "methods/registry.h"

#include <QString>

class QWidget;

namespace posatlas::ui {

class LogSlider;

// The field's tooltip: its text, its unit and its key ("Key: rope_theta").
QString field_tooltip(const Field& field);
// The field's label with its unit ("Model context (positions)").
QString field_label(const Field& field);
// A slider for a field of type Int, Seed, Real or OptionalReal.
LogSlider* make_field_slider(const Field& field, QWidget* parent = nullptr);
// The note when a typed value was clamped: "<label>: <LogSlider's note naming the limit>".
QString field_clamp_message(const Field& field, const QString& note);

} // namespace posatlas::ui
