//! Where finished games are written: files appended to in game order.
//!
//! Games of a match finish in any order when several run at once; a file
//! of records is read in game order, so a game's text waits until every
//! earlier game is written, and each write is flushed at once, so that an
//! interrupted match loses nothing it finished. An existing file is never
//! truncated: a match adds to it.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that receives game texts in game order.
pub struct InOrderFile {
    file: File,
    path: PathBuf,
    /// The id of the next game to write.
    next: usize,
    /// Texts of finished games waiting for an earlier one.
    waiting: BTreeMap<usize, String>,
}

impl InOrderFile {
    /// Opens `path` to append to (creating it), writing `header` first if
    /// the file is new or empty; the first game to write is game 1.
    pub fn append(path: &Path, header: Option<&str>) -> Result<InOrderFile, String> {
        let failed = |why: std::io::Error| format!("{}: {why}", path.display());
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(failed)?;
        let empty = file.metadata().map_err(failed)?.len() == 0;
        if let (true, Some(header)) = (empty, header) {
            writeln!(file, "{header}").map_err(failed)?;
        }
        Ok(InOrderFile {
            file,
            path: path.to_path_buf(),
            next: 1,
            waiting: BTreeMap::new(),
        })
    }

    /// The file, its first text to write being that of game `next` (the
    /// games before it were written by an earlier run).
    pub fn starting_at(mut self, next: usize) -> InOrderFile {
        self.next = next;
        self
    }

    /// Writes `text` at once, before any game's (a note on what follows).
    pub fn write_now(&mut self, text: &str) -> Result<(), String> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|why| format!("{}: {why}", self.path.display()))
    }

    /// Adds the text of game `id`; writes it, and every waiting game after
    /// it, once all games before it are written.
    pub fn add(&mut self, id: usize, text: String) -> Result<(), String> {
        self.waiting.insert(id, text);
        while let Some(text) = self.waiting.remove(&self.next) {
            self.file
                .write_all(text.as_bytes())
                .and_then(|()| self.file.flush())
                .map_err(|why| format!("{}: {why}", self.path.display()))?;
            self.next += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_written_in_order_and_files_are_added_to() {
        let path = std::env::temp_dir().join(format!("triskel-sink-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut sink = InOrderFile::append(&path, Some("# header")).unwrap();
        for id in [2, 3, 1, 5] {
            sink.add(id, format!("game {id}\n")).unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "# header\ngame 1\ngame 2\ngame 3\n");
        drop(sink);
        let mut again = InOrderFile::append(&path, Some("# header")).unwrap();
        again.add(1, "game 1 again\n".to_string()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "# header\ngame 1\ngame 2\ngame 3\ngame 1 again\n");
        let _ = std::fs::remove_file(&path);
    }
}
