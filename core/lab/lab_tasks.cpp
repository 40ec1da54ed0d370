// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's tasks, generated on the fly from (seed, index) with SplitMix64: the same sequences on every
// machine and standard library (std::uniform_int_distribution's algorithm is the library's choice).
#include "lab/lab.h"

#include <algorithm>
#include <stdexcept>

namespace posatlas::lab {

namespace {

struct SplitMix {
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) (the bias of a 64-bit modulo is below 2^-50 for the n used here).
    std::int64_t below(std::int64_t n)
    {
        return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n));
    }
};

// One sequence of length + 1 tokens, and which of its tokens (index >= 1) are answers.
void make_sequence(const std::string& task, int alphabet, std::int64_t length, bool training, SplitMix& r,
                   std::vector<std::int64_t>& seq, std::vector<std::uint8_t>& answer)
{
    const std::int64_t n = length + 1;
    seq.assign(n, kPad);
    answer.assign(n, 0);
    const auto letter = [&] { return kFirstLetter + r.below(alphabet); };
    if (task == "copy") {
        const std::int64_t half = training ? 1 + r.below(length / 2) : length / 2, start = n - (2 * half + 1);
        for (std::int64_t i = 0; i < half; ++i)
            seq[start + i] = letter();
        seq[start + half] = kSep;
        for (std::int64_t i = 0; i < half; ++i) {
            seq[start + half + 1 + i] = seq[start + i];
            answer[start + half + 1 + i] = 1;
        }
    } else if (task == "recall") {
        // One mapping key -> value per sequence; pairs fill the first half, queries the rest.
        std::vector<std::int64_t> value(alphabet);
        for (auto& v : value)
            v = kFirstLetter + r.below(alphabet);
        const std::int64_t pairs = std::max<std::int64_t>(1, n / 4);
        const std::int64_t start = n - 4 * pairs; // 0 .. 3 pads first
        std::vector<std::int64_t> seen;
        for (std::int64_t i = 0; i < pairs; ++i) {
            const std::int64_t k = r.below(alphabet);
            seen.push_back(k);
            seq[start + 2 * i] = kFirstLetter + k;
            seq[start + 2 * i + 1] = value[k];
        }
        const std::int64_t q0 = start + 2 * pairs;
        seq[q0] = kSep;
        for (std::int64_t t = q0 + 1; t + 1 < n; t += 2) {
            const std::int64_t k = seen[r.below(static_cast<std::int64_t>(seen.size()))];
            seq[t] = kFirstLetter + k;
            seq[t + 1] = value[k];
            answer[t + 1] = 1;
        }
    } else if (task == "induction") {
        for (auto& t : seq)
            t = letter();
        const std::int64_t p = r.below(std::max<std::int64_t>(1, (n - 2) / 2));
        const std::int64_t b = letter();
        seq[p] = kTrigger;
        seq[p + 1] = b;
        seq[n - 2] = kTrigger;
        seq[n - 1] = b;
        answer[n - 1] = 1;
    } else {
        throw ParameterError("task", "copy|recall|induction (lm reads a corpus: make_lm_batch)", task);
    }
}

// A batch of `batch` sequences of `length` tokens, every token 0 and no answer yet.
TaskBatch sized_batch(int batch, std::int64_t length)
{
    TaskBatch b;
    b.batch = batch;
    b.length = length;
    b.input.resize(static_cast<std::size_t>(batch * length));
    b.target.resize(b.input.size());
    b.answer.resize(b.input.size());
    return b;
}

SplitMix sequence_random(std::uint64_t seed, std::uint64_t index, int s)
{
    SplitMix r{seed * 0x100000001b3ull ^
               (index * 1315423911ull + static_cast<std::uint64_t>(s) * 2654435761ull)};
    r.next();
    return r;
}

} // namespace

TaskBatch make_batch(const std::string& task, int alphabet, std::int64_t length, int batch,
                     std::uint64_t seed, std::uint64_t index, bool training)
{
    // Recall needs a pair, the separator and a query with its answer.
    const std::int64_t shortest = task == "recall" ? 8 : 4;
    if (length < shortest)
        throw ParameterError("lengths", "at least " + std::to_string(shortest) + " for " + task,
                             std::to_string(length));
    TaskBatch b = sized_batch(batch, length);
    std::vector<std::int64_t> seq;
    std::vector<std::uint8_t> ans;
    for (int s = 0; s < batch; ++s) {
        SplitMix r = sequence_random(seed, index, s);
        make_sequence(task, alphabet, length, training, r, seq, ans);
        for (std::int64_t t = 0; t < length; ++t) {
            b.input[s * length + t] = seq[t];
            b.target[s * length + t] = seq[t + 1];
            b.answer[s * length + t] = ans[t + 1];
        }
    }
    return b;
}

TaskBatch make_lm_batch(const Corpus& corpus, std::int64_t length, int batch, std::uint64_t seed,
                        std::uint64_t index, bool training)
{
    const std::vector<std::int64_t>& text = training ? corpus.training : corpus.held_out;
    const std::int64_t n = static_cast<std::int64_t>(text.size());
    if (length < 1 || length + 1 > n)
        throw ParameterError(training ? "train-len" : "lengths",
                             "at most " + std::to_string(n - 1) + " (the corpus's " +
                                 (training ? "training" : "held-out") + " text: " + std::to_string(n) +
                                 " characters)",
                             std::to_string(length));
    TaskBatch b = sized_batch(batch, length);
    std::fill(b.answer.begin(), b.answer.end(), std::uint8_t{1}); // every next character counts
    for (int s = 0; s < batch; ++s) {
        SplitMix r = sequence_random(seed, index, s);
        const std::int64_t start = r.below(n - length); // the window text[start, start + length]
        for (std::int64_t t = 0; t < length; ++t) {
            b.input[s * length + t] = text[start + t];
            b.target[s * length + t] = text[start + t + 1];
        }
    }
    return b;
}

TaskBatch task_batch(const LabConfig& c, const Corpus* corpus, std::int64_t length, int batch,
                     std::uint64_t seed, std::uint64_t index, bool training)
{
    if (c.language_model()) {
        if (!corpus)
            throw std::logic_error("task_batch: the lm task needs its corpus");
        return make_lm_batch(*corpus, length, batch, seed, index, training);
    }
    return make_batch(c.task, c.alphabet, length, batch, seed, index, training);
}

} // namespace posatlas::lab
