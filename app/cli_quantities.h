// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The quantities of `posatlas compute`: one function each, writing JSON or CSV (by --format or the
// extension of --out) to a stream. cli_compute.cpp holds their option table, help and dispatch.

#include "cli_options.h"
#include "cli_output.h"
#include "compute/attention_logits.h"
#include "scenario/params.h"

#include <nlohmann/json_fwd.hpp>

#include <ostream>

namespace posatlas::cli::quantity_kernels {

void rope_frequencies(const Options& o, Scenario& s, std::ostream& out);
void rope_decay(const Options& o, Scenario& s, std::ostream& out);
void rope_score(const Options& o, Scenario& s, std::ostream& out);
void rope_angles_quantity(const Options& o, Scenario& s, std::ostream& out);
void mrope_positions_quantity(const Options& o, Scenario& s, std::ostream& out);
void alibi_slopes_quantity(const Options& o, Scenario& s, std::ostream& out);
void t5_buckets(const Options& o, Scenario& s, std::ostream& out);
void deberta_buckets(const Options& o, Scenario& s, std::ostream& out);
void sinusoidal_quantity(const Options& o, Scenario& s, std::ostream& out);
void learned_quantity(const Options& o, Scenario& s, std::ostream& out);
// What `compute matrix` computes: --kind (the method's first kind when not given) and the window's
// options, checked as the command line checks them. The Python module's matrix() reads them here too.
struct MatrixRequest {
    MatrixKind kind;
    MatrixWindow window;
};
MatrixRequest matrix_request(const Options& o, const Scenario& s);
// One query patch (--query-patch) against every patch of the grid: core's patch_grid_row in the layout of
// io/patch_grid_columns.h.
void patch_grid_quantity(const Options& o, Scenario& s, std::ostream& out);
void matrix_quantity(const Options& o, Scenario& s, std::ostream& out);
void rope_pairs_quantity(const Options& o, Scenario& s, std::ostream& out);
void attention_entropy_quantity(const Options& o, Scenario& s, std::ostream& out);
void scenario_quantity(const Options& o, Scenario& s, std::ostream& out);

} // namespace posatlas::cli::quantity_kernels
