// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's autosave and crash recovery (autosave.h): what a snapshot holds, when it is taken,
// and how a recovered one is offered and restored. The autosave is a session file (session.h), so it has
// one format, one reader and one validator with File > Open Session; a snapshot is
// SessionActions::currentSession with the view in front and the explorer's state.
//
// Nothing here throws work away on its own: an autosave that cannot be read is moved aside (.bak), one
// whose files are missing is offered with their names, and only Discard deletes it. When autosave is off
// (a full disk, another instance) a notice says why for as long as it lasts (NoticeArea ids "autosave"
// and "recovery").
#pragma once

#include "model/session.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <vector>

class QWidget;

namespace posatlas::ui {

class Autosave;
class ExplorerWindow;
class NoticeArea;
class SessionActions;
class ViewController;
class WindowStatus;

class AutosaveController : public QObject
{
    Q_OBJECT
public:
    // The context-extension explorer, which the window creates on first use: the one open (or nullptr),
    // and one opened (created when needed) to restore an autosaved state into. Either may be empty.
    struct ExplorerAccess {
        std::function<ExplorerWindow*()> current;
        std::function<ExplorerWindow*()> open;
    };
    // `window`: the parent of the recovery box and the file dialogs. Autosaving starts with start().
    AutosaveController(SessionActions* sessions, ViewController* views, NoticeArea* notices,
                       WindowStatus* status, const ExplorerAccess& explorer, QWidget* window);

    // Autosaves into `directory` (empty: off); offers a recoverable autosave from the event loop.
    void start(const QString& directory);
    Autosave* autosave() const { return m_autosave; }
    // The window's whole state as an autosave: the session, the view in front and the explorer.
    QByteArray snapshot() const;

    // Asks `text` and answers through `answer(true)` to restore, `answer(false)` to discard; not
    // answering keeps the autosave on disk for later. The default is a window-modal Restore / Locate… /
    // Discard / Later box that does not block the caller.
    using RecoveryPrompt = std::function<void(const QString& text, std::function<void(bool)> answer)>;
    void setRecoveryPrompt(RecoveryPrompt prompt) { m_recoveryPrompt = std::move(prompt); }
    // Offers the autosave left by a run that ended without a clean close (once). True when there was one.
    bool offerRecovery();
    // Reads `replacement` where the autosave names the missing file `missing` (Locate… in the offer).
    void replaceRecoveryFile(const QString& missing, const QString& replacement);
    // The autosave notice's Retry: takes the folder again, or writes again after a failed write.
    void retry();

private:
    void updateNotice();
    void keepRecoveryForLater();
    void locateMissingFiles(const std::vector<MissingFile>& missing);
    // Restores the autosave; `missing` receives the files it names that were missing (left out).
    bool restoreSnapshot(const QByteArray& bytes, std::vector<MissingFile>* missing = nullptr);

    SessionActions* m_sessions;
    ViewController* m_views;
    NoticeArea* m_notices;
    WindowStatus* m_status;
    ExplorerAccess m_explorer;
    QWidget* m_window;
    Autosave* m_autosave = nullptr;
    RecoveryPrompt m_recoveryPrompt;
    bool m_recoveryOffered = false;
    std::map<QString, QString> m_recoveryReplacements; // Locate…: missing path -> the file chosen
    QString m_autosaveDir;
};

} // namespace posatlas::ui
