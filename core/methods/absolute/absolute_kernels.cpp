// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels of the absolute methods (sinusoidal, learned): logits (q_i + p_i) . (k_j + p_j) / sqrt(d)
// (Vaswani et al. 2017) and the encodings themselves, exact cells or exact block means.
#include "methods/absolute/absolute_kernels.h"

#include "methods/method.h"

#include "compute/block_means.h"
#include "io/columns.h"
#include "methods/learned/learned.h"
#include "methods/sinusoidal/sinusoidal.h"
#include "scenario/content.h"

#include <cmath>
#include <complex>
#include <limits>
#include <optional>

namespace posatlas {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kRowChunk = 32;

// Block means of the absolute position vectors p over each block of b, over the positions that have
// one ([0, trained length) for a learned table); `valid` receives the count per block.
//   Sinusoidal: mean sin(p w) and cos(p w) are Im and Re of the Dirichlet sum / block size.
//   Learned: the mean of the table's rows.
Eigen::MatrixXd position_block_means(const MatrixJob& c, const LearnedTable* learned,
                                     const std::vector<std::int64_t>& b, std::vector<std::int64_t>& valid)
{
    const auto n = static_cast<std::int64_t>(b.size()) - 1;
    valid.assign(static_cast<std::size_t>(n), 0);
    if (c.s.method == Method::Sinusoidal) {
        const Eigen::VectorXd omega = sinusoidal_frequencies(c.s.params<SinusoidalParams>());
        const Eigen::Index half = omega.size();
        Eigen::MatrixXd m(n, c.s.params<SinusoidalParams>().dim);
        for (std::int64_t t = 0; t < n; ++t) {
            const std::int64_t a = b[static_cast<std::size_t>(t)],
                               len = b[static_cast<std::size_t>(t) + 1] - a;
            valid[static_cast<std::size_t>(t)] = len;
            for (Eigen::Index k = 0; k < half; ++k) {
                const std::complex<double> z = dirichlet_sum(omega[k], a, len) / static_cast<double>(len);
                const bool interleaved =
                    c.s.params<SinusoidalParams>().layout == SinusoidalLayout::Interleaved;
                m(t, interleaved ? 2 * k : k) = z.imag();
                m(t, interleaved ? 2 * k + 1 : half + k) = z.real();
            }
        }
        return m;
    }
    const LearnedTable& table = *learned;
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, table.dim());
    for (std::int64_t t = 0; t < n; ++t) {
        const std::int64_t a = b[static_cast<std::size_t>(t)];
        const std::int64_t end =
            std::min<std::int64_t>(b[static_cast<std::size_t>(t) + 1], table.trained_length());
        if (a >= end)
            continue;
        valid[static_cast<std::size_t>(t)] = end - a;
        m.row(t) = table.table().middleRows(a, end - a).colwise().mean();
    }
    return m;
}

// (mean_I (q + p)) . (mean_J (k + p)) / sqrt(d): exact because a learned table's valid positions form a
// product set with the keys' (both are [0, trained length)), so the mean over valid cells factorises.
void absolute_block_logits(MatrixJob& c, const LearnedTable* learned)
{
    std::vector<std::int64_t> vr, vc, cr, cc;
    const Eigen::MatrixXd pr = position_block_means(c, learned, c.rb, vr);
    const Eigen::MatrixXd pc = position_block_means(c, learned, c.cb, vc);
    const int d = static_cast<int>(pr.cols());
    const std::int64_t limit = learned ? learned->trained_length() : std::numeric_limits<std::int64_t>::max();
    const Eigen::MatrixXd q = content_block_means(c, false, d, c.rb, 0, limit, cr, 0.0, 0.45) + pr;
    const Eigen::MatrixXd k = content_block_means(c, true, d, c.cb, 0, limit, cc, 0.45, 0.9) + pc;
    check_cancel(c.cancel);
    gemm_nt(q, k, 1.0 / std::sqrt(static_cast<double>(d)), c.precision, c.out.values);
    for (Eigen::Index s = 0; s < c.out.values.cols(); ++s)
        for (Eigen::Index r = 0; r < c.out.values.rows(); ++r)
            if (vr[static_cast<std::size_t>(r)] == 0 || vc[static_cast<std::size_t>(s)] == 0)
                c.out.values(r, s) = kNaN;
    report_progress(c.progress, 1.0);
}

// Encodings: rows are position blocks, columns dimension blocks; a cell is the mean over both.
void encoding_block_matrix(MatrixJob& c, const LearnedTable* learned)
{
    c.out.row_label = QT_TRANSLATE_NOOP("MatrixLabel", "position");
    c.out.col_label = QT_TRANSLATE_NOOP("MatrixLabel", "dimension");
    c.out.value_label = QT_TRANSLATE_NOOP("MatrixLabel", "encoding");
    c.out.row_name = columns::kPosition;
    c.out.col_name = columns::kDimension;
    c.out.is_signed = true;
    std::vector<std::int64_t> valid;
    const Eigen::MatrixXd p = position_block_means(c, learned, c.rb, valid);
    for (Eigen::Index s = 0; s + 1 < static_cast<Eigen::Index>(c.cb.size()); ++s) {
        const std::int64_t d0 = c.cb[static_cast<std::size_t>(s)], d1 = c.cb[static_cast<std::size_t>(s) + 1];
        for (Eigen::Index r = 0; r < p.rows(); ++r)
            c.out.values(r, s) =
                valid[static_cast<std::size_t>(r)] == 0 ? kNaN : p.row(r).segment(d0, d1 - d0).mean();
    }
    report_progress(c.progress, 1.0);
}

// ------------------------------------------------------------------ absolute methods

void absolute_logits(MatrixJob& c, const Eigen::MatrixXd& pe_rows, const Eigen::MatrixXd& pe_cols,
                     const std::vector<bool>& row_ok, const std::vector<bool>& col_ok)
{
    const int d = static_cast<int>(pe_rows.cols());
    const Eigen::MatrixXd q = job_queries(c, d) + pe_rows;
    const Eigen::MatrixXd k = job_keys(c, d) + pe_cols;
    check_cancel(c.cancel);
    gemm_nt(q, k, 1.0 / std::sqrt(static_cast<double>(d)), c.precision, c.out.values);
    for (std::size_t r = 0; r < row_ok.size(); ++r)
        for (std::size_t col = 0; col < col_ok.size(); ++col)
            if (!row_ok[r] || !col_ok[col])
                c.out.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(col)) = kNaN;
    report_progress(c.progress, 1.0);
}

Eigen::MatrixXd sinusoidal_rows(const SinusoidalParams& p, const std::vector<std::int64_t>& positions)
{
    return sinusoidal_rows_at(p, positions); // frequencies once, rows in parallel
}

// One query against many keys (a logit curve: up to 2^13 keys per call, 10^6 in all): with
// a = q_i + p_i the logit is (a . k_j + a . p_j) / sqrt(d); a . p_j comes from sinusoidal_dots (no
// 2^13 x d matrices of rows), a . k_j from one vector when the content does not depend on the position.
void sinusoidal_row_logits(MatrixJob& c, const SinusoidalParams& p)
{
    const int d = p.dim;
    const Eigen::VectorXd a = job_queries(c, d).row(0).transpose() + sinusoidal_row(p, c.rows.front());
    check_cancel(c.cancel);
    const std::vector<double> positional = sinusoidal_dots(p, a, c.cols);
    Eigen::VectorXd content;
    if (content_is_position_independent(c.s.content))
        content = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(c.cols.size()),
                                            a.dot(content_key(c.s.content, d, c.cols.front())));
    else
        content = job_keys(c, d) * a;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    for (std::size_t col = 0; col < c.cols.size(); ++col)
        c.out.values(0, static_cast<Eigen::Index>(col)) =
            (content[static_cast<Eigen::Index>(col)] + positional[col]) * inv_sqrt_d;
    report_progress(c.progress, 1.0);
}

// Rows of the learned table (zero where missing) and which positions exist.
std::pair<Eigen::MatrixXd, std::vector<bool>> learned_rows(const LearnedTable& t,
                                                           const std::vector<std::int64_t>& positions)
{
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(positions.size()), t.dim());
    std::vector<bool> ok(positions.size());
    for (std::size_t r = 0; r < positions.size(); ++r) {
        ok[r] = t.has(positions[r]);
        if (ok[r])
            m.row(static_cast<Eigen::Index>(r)) = t.table().row(positions[r]);
    }
    return {std::move(m), std::move(ok)};
}

void encoding_matrix(MatrixJob& c, const LearnedTable* learned)
{
    // Rows are positions, columns are dimensions.
    c.out.row_label = QT_TRANSLATE_NOOP("MatrixLabel", "position");
    c.out.col_label = QT_TRANSLATE_NOOP("MatrixLabel", "dimension");
    c.out.value_label = QT_TRANSLATE_NOOP("MatrixLabel", "encoding");
    c.out.row_name = columns::kPosition;
    c.out.col_name = columns::kDimension;
    c.out.is_signed = true;
    auto pick = [&](const Eigen::VectorXd& row, Eigen::Index r) {
        for (std::size_t col = 0; col < c.cols.size(); ++col)
            c.out.values(r, static_cast<Eigen::Index>(col)) = row[c.cols[col]];
    };
    if (c.s.method == Method::Sinusoidal) {
        for (std::size_t r = 0; r < c.rows.size(); ++r) {
            if (r % kRowChunk == 0)
                check_cancel(c.cancel);
            pick(sinusoidal_row(c.s.params<SinusoidalParams>(), c.rows[r]), static_cast<Eigen::Index>(r));
        }
    } else {
        for (std::size_t r = 0; r < c.rows.size(); ++r) {
            const auto e = learned->embedding(c.rows[r]);
            if (e)
                pick(*e, static_cast<Eigen::Index>(r));
            else
                c.out.values.row(static_cast<Eigen::Index>(r)).setConstant(kNaN);
        }
    }
    report_progress(c.progress, 1.0);
}

} // namespace

void absolute_matrix(MatrixJob& job)
{
    std::optional<LearnedTable> table;
    if (job.s.method == Method::Learned)
        table = LearnedTable::from_params(job.s.params<LearnedParams>()); // a user's table sets its own width
    const LearnedTable* learned = table ? &*table : nullptr;
    const bool encoding = job.kind == MatrixKind::Encoding;
    if (job.block_means()) {
        if (encoding)
            encoding_block_matrix(job, learned);
        else
            absolute_block_logits(job, learned);
        return;
    }
    if (encoding) {
        encoding_matrix(job, learned);
        return;
    }
    if (learned) {
        auto [pr, okr] = learned_rows(*learned, job.rows);
        auto [pc, okc] = learned_rows(*learned, job.cols);
        absolute_logits(job, pr, pc, okr, okc);
        return;
    }
    const SinusoidalParams& p = job.s.params<SinusoidalParams>();
    if (job.rows.size() == 1 && job.cols.size() > 256) {
        sinusoidal_row_logits(job, p);
        return;
    }
    absolute_logits(job, sinusoidal_rows(p, job.rows), sinusoidal_rows(p, job.cols),
                    std::vector<bool>(job.rows.size(), true), std::vector<bool>(job.cols.size(), true));
}

ExplanationText absolute_logits_explanation(const Scenario& s, const char* zero_content)
{
    ExplanationText t;
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "The logit is (q_i + p_i) · (k_j + p_j) / √d: the position vectors are "
                            "added to the content before the product, so the score mixes content, "
                            "position and their cross terms."));
    if (explained_zero_content(s))
        t.add(zero_content);
    else if (explained_constant_content(s))
        t.add(QT_TRANSLATE_NOOP("Explanation",
                                "The cross terms depend on i and j themselves, not only on i − j: the "
                                "diagonals are not constant."));
    return t;
}

} // namespace posatlas
