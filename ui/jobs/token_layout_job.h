// SPDX-License-Identifier: GPL-3.0-or-later
// The token-layout figure's numbers (jobs/token_layout_data.h): M-RoPE's position ids of every token of
// the scenario's layout and the axis of every rotary pair, from core (methods/mrope/mrope.h). Runs on a
// worker thread (the main window submits it to its JobTracker), as the views' jobs do.
#pragma once

#include "jobs/token_layout_data.h"
#include "scenario/params.h"
#include "scenario/types.h"

namespace posatlas::ui {

// True when the scenario's method gives tokens M-RoPE's (t, h, w) ids (the figure has something to show).
bool shows_token_layout(const Scenario& s);

// For another method: no blocks, and a title that says the figure is M-RoPE's. Throws ParameterError
// for a layout core refuses (naming token_layout), Cancelled when `cancel` turns true.
TokenLayoutData token_layout_job(const Scenario& s, const CancelFn& cancel = {});

} // namespace posatlas::ui
