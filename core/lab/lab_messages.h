// SPDX-License-Identifier: GPL-3.0-or-later
// The texts posatlas-lab prints. posatlas-lab is Qt-free, so it has no translations of its own: the
// program that starts it (`posatlas lab`, the GUI's Lab window: ui/lab/lab_sweep_runner.h
// lab_messages_catalogue) translates these into the environment's language and hands them
// over in the environment variable kLabMessagesVariable (a JSON object from "context\u0004source" to the
// translation); run by itself, posatlas-lab prints them in English. The literal translate() calls in
// lab_main.cpp are what lupdate collects.
#pragma once

#include <utility>

namespace posatlas::lab {

inline constexpr const char* kLabMessagesVariable = "POSATLAS_LAB_MESSAGES";

inline constexpr std::pair<const char*, const char*> kLabMessages[] = {
    {"Cli", "loss"},
    {"Cli", "accuracy"},
    {"Cli", "cancelled; %1 holds the last checkpoint, step %2 of %3"},
    {"Cli", "note: the run is %1 (step %2 of %3); its last checkpoint is evaluated"},
    {"Cli", "length"},
    {"Cli", "answer accuracy"},
    {"Cli", "not defined (beyond the learned table)"},
    {"Cli", "perplexity"},
    {"Cli", "bits per character"},
    {"Cli", "training perplexity"},
    {"Cli",
     "fine-tuned before evaluation: %1 steps at length %2 (peak lr %3, loss of the last steps %4); the run "
     "folder is unchanged"},
    {"Cli", "the fine-tuned model is in %1"},
    {"Cli", "cancelled"},
    {"Cli", "out of memory; ask for a smaller window or length"},
    {"Cli", "internal error: %1"},
    {"Cli", "core's logits from these sessions equal the model's scores within %1 (relative, float32 "
            "rounding); open a session in the app: File > Open Session"},
    {"posatlas::ui::ParameterMessage", "%1 must be %2 (got %3)"},
};

} // namespace posatlas::lab
