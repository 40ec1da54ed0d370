// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_errors.h"

#include "cli_i18n.h"
#include "cli_options.h"

#include "io/input_file.h"
#include "io/safe_write.h"
#include "scenario/types.h"

#include <new>
#include <stdexcept>

namespace posatlas::cli {

int report_command_error(std::ostream& err)
{
    try {
        throw;
    } catch (const UsageError& e) {
        // Option values are quoted in these messages: escape them as file contents are (idempotent). Bounded
        // at 4000 characters: an unknown option's message lists every option the command accepts, and
        // export's list (every method's parameters) is over 2000.
        err << "posatlas: " << quote_input(e.what(), 4000) << '\n';
        return 2;
    } catch (const ParameterError& e) {
        // The GUI's sentence (posatlas::ui::ParameterMessage), naming the option.
        err << "posatlas: " << parameter_message(option_name(e.parameter()), e.allowed(), e.got()) << '\n';
        return 2;
    } catch (const Cancelled&) {
        err << "posatlas: " << translate("Cli", "cancelled") << '\n';
        return 1;
    } catch (const InputFileError& e) { // ConfigError, SessionError, tables, scenario files, lab run folders
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    } catch (const OutputFileError& e) { // "cannot write PATH: No space left on device"
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    } catch (const std::bad_alloc&) {
        err << "posatlas: " << translate("Cli", "out of memory; ask for a smaller window or length") << '\n';
        return 1;
    } catch (const std::exception& e) {
        err << "posatlas: " << arg(translate("Cli", "internal error: %1"), {quote_input(e.what(), 2000)})
            << '\n';
        return 1;
    }
}

} // namespace posatlas::cli
