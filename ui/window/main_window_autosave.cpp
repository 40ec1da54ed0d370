// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's autosave and crash recovery (autosave.h), kept beside main_window.cpp: what a snapshot
// holds, when it is taken, and how a recovered one is offered and restored. The autosave is a session
// file (session.h), so it has one format, one reader and one validator with File > Open Session.
#include "explorer/explorer_window.h"
#include "model/autosave.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QDateTime>
#include <QDockWidget>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

namespace posatlas::ui {

void MainWindow::startAutosave(const QString& settingsPath)
{
    m_autosave = new Autosave([this] { return autosaveSnapshot(); }, this);
    connect(m_autosave, &Autosave::saveFailed, this, &MainWindow::showError);
    // Every edit, undo and redo arrives as scenarioChanged; dock arrangement changes as visibility.
    connect(m_model, &ScenarioModel::scenarioChanged, m_autosave, &Autosave::markDirty);
    for (ViewKind k : kAllViewKinds)
        connect(dock(k), &QDockWidget::visibilityChanged, m_autosave, &Autosave::markDirty);

    const QString dir =
        settingsPath.isEmpty() ? Autosave::defaultDirectory() : qEnvironmentVariable("POSATLAS_STATE_DIR");
    if (dir.isEmpty())
        return;
    if (!m_autosave->start(dir)) {
        showError(tr("Autosave is off: %1").arg(m_autosave->errorString()));
        return;
    }
    if (m_autosave->recoverable())
        QTimer::singleShot(0, this, [this] { offerRecovery(); });
}

QByteArray MainWindow::autosaveSnapshot() const
{
    Session s = m_sessions->currentSession();
    s.current_view = view_kind_id(m_sessions->currentView());
    if (m_explorer)
        s.explorer = m_explorer->state();
    return session_to_json(s);
}

bool MainWindow::offerRecovery()
{
    if (m_recoveryOffered || !m_autosave->recoverable())
        return false;
    m_recoveryOffered = true;
    const QByteArray bytes = *m_autosave->recoverable();
    // A damaged autosave is not worth a question: say so and start fresh.
    Session session;
    try {
        session = session_from_json(bytes);
    } catch (const SessionError& e) {
        m_autosave->discardRecoverable();
        showError(tr("The autosaved work could not be read and was discarded: %1")
                      .arg(QString::fromUtf8(e.what())));
        return false;
    }
    const QDateTime when = QFileInfo(m_autosave->filePath()).lastModified();
    const QString text =
        tr("PosAtlas did not close cleanly last time. Restore the work autosaved at %1?\n\n%2")
            .arg(dateTimeText(when), scenario_caption(session.scenario));
    auto answer = [this, bytes](bool restore) {
        if (restore && restoreAutosave(bytes)) {
            m_autosave->acceptRecoverable();
            statusBar()->showMessage(tr("Restored the autosaved work"), 8000);
        } else {
            m_autosave->discardRecoverable();
        }
    };
    if (m_recoveryPrompt) {
        m_recoveryPrompt(text, answer);
        return true;
    }
    auto* box = new QMessageBox(QMessageBox::Question, tr("Restore autosaved work"), text,
                                QMessageBox::NoButton, this);
    QPushButton* restore = box->addButton(tr("&Restore"), QMessageBox::AcceptRole);
    box->addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    box->setDefaultButton(restore);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    connect(box, &QMessageBox::finished, this,
            [box, restore, answer] { answer(box->clickedButton() == restore); });
    box->open();
    return true;
}

bool MainWindow::restoreAutosave(const QByteArray& bytes)
{
    Session session;
    try {
        session = session_from_json(bytes);
    } catch (const SessionError& e) {
        showError(tr("Cannot restore the autosave: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    if (!m_sessions->applySession(session, tr("(recovered)")))
        return false;
    if (const auto kind = parse_view_kind(session.current_view))
        dock(*kind)->raise();
    if (session.explorer) {
        ExplorerWindow* explorer = openExplorer();
        if (!explorer->applyState(*session.explorer))
            showError(tr("The explorer's autosaved state did not fit and was left out"));
    }
    return true;
}

} // namespace posatlas::ui
