// SPDX-License-Identifier: GPL-3.0-or-later
// A rejected parameter, said in the interface's language. The core stays Qt-free and English: its
// ParameterError carries the parameter's key, the allowed values and the value given, as data
// (scenario/types.h). Here the key becomes the panel's label with the key beside it ("Base θ
// (rope_theta)"), and the allowed values, which the core phrases from a small set of templates
// (validation.cpp: "an integer in [lo, hi]", "> lo and <= hi", "one of a|b", the memory budget …), are
// translated template by template. A phrase outside the templates stays as the core wrote it.
#pragma once

#include "scenario/params.h"
#include "scenario/types.h"

#include <QString>

namespace posatlas::ui {

// "<label> (<key>) must be <allowed> (got <value>)", translated; the label is looked up among the
// scenario's method's fields, then the common fields, then every method's (the key alone if none).
QString parameterErrorText(const ParameterError& error, const Scenario& scenario);
// The allowed-values phrase of a ParameterError, translated when it follows one of the templates.
QString allowedText(const std::string& allowed);

} // namespace posatlas::ui
