// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/content_file_picker.h"

#include "io/safetensors.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QStringList>

namespace posatlas::ui {
namespace {

// One file (and, for a checkpoint, one of its 2-D tensors); false when cancelled or unreadable.
bool pick_one(QWidget* parent, const QString& title, QString& dir, ContentFile& out)
{
    const QString path = QFileDialog::getOpenFileName(
        parent, title, dir,
        QCoreApplication::translate("ContentFilePicker",
                                    "Arrays (*.npy *.csv *.safetensors);;All files (*)"));
    if (path.isEmpty())
        return false;
    dir = QFileInfo(path).absolutePath();
    out = ContentFile{QFile::encodeName(path).toStdString(), "", nullptr};
    if (!path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive))
        return true;
    QStringList names;
    try {
        for (const SafetensorsTensor& t : read_safetensors(out.path).tensors)
            if (t.matrix_shape())
                names << QString::fromStdString(t.name);
    } catch (const SafetensorsError& e) {
        QMessageBox::warning(parent, title, QString::fromStdString(e.what()));
        return false;
    }
    if (names.isEmpty()) {
        QMessageBox::warning(
            parent, title,
            QCoreApplication::translate("ContentFilePicker", "%1 has no 2-D tensor (positions x dimensions).")
                .arg(QFileInfo(path).fileName()));
        return false;
    }
    bool ok = false;
    const QString name = QInputDialog::getItem(
        parent, title,
        QCoreApplication::translate("ContentFilePicker", "Tensor (positions x head dimension):"), names, 0,
        false, &ok);
    if (!ok)
        return false;
    out.tensor = name.toStdString();
    return true;
}

QString file_text(const ContentFile& f)
{
    const QString name = QFileInfo(QFile::decodeName(f.path.c_str())).fileName();
    return f.tensor.empty() ? name : QStringLiteral("%1:%2").arg(name, QString::fromStdString(f.tensor));
}

} // namespace

std::optional<Scenario> pick_content_files(QWidget* parent, const Scenario& s)
{
    QString dir = s.content.queries.empty()
                      ? QString()
                      : QFileInfo(QFile::decodeName(s.content.queries.path.c_str())).absolutePath();
    Scenario next = s;
    if (!pick_one(parent, QCoreApplication::translate("ContentFilePicker", "Queries file (N x d)"), dir,
                  next.content.queries))
        return std::nullopt;
    if (!pick_one(parent, QCoreApplication::translate("ContentFilePicker", "Keys file (N x d)"), dir,
                  next.content.keys))
        return std::nullopt;
    // The files are the sequence: a sentence would disagree with them.
    next.content.text.clear();
    next.content.tokens.clear();
    return next;
}

QString content_files_text(const ContentParams& c)
{
    if (!c.from_files())
        return {};
    return QStringLiteral("%1, %2").arg(file_text(c.queries), file_text(c.keys));
}

} // namespace posatlas::ui
