//! Every file the program reads or writes goes through here: reads are bounded per kind of file
//! (a device or a pipe reports no size, so the bound is enforced while reading), and writes go
//! to an exclusively created temporary file beside the target, renamed into place, so a failed
//! write never damages an existing file and a planted symlink is never followed.

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The kinds of file the program reads, each with its own size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A level (`*.level.ron`).
    Level,
    /// A command script (`run --commands`).
    Script,
    /// A JSON-lines battle log (`replay`).
    Log,
    /// A text map for `rules los`.
    Map,
    /// A compendium of weapons, armour, abilities, creatures and AI profiles.
    Compendium,
}

impl FileKind {
    /// The largest file of this kind that is read (bytes).
    pub fn limit(self) -> u64 {
        match self {
            FileKind::Level | FileKind::Script | FileKind::Compendium => 4 * 1024 * 1024,
            FileKind::Log => 256 * 1024 * 1024,
            FileKind::Map => 1024 * 1024,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Level => "level",
            FileKind::Script => "command script",
            FileKind::Log => "log",
            FileKind::Map => "map",
            FileKind::Compendium => "compendium",
        }
    }
}

/// Why a file could not be read or written; shown as `PATH: reason`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub path: String,
    pub reason: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

impl std::error::Error for FileError {}

fn error(path: &Path, reason: impl Into<String>) -> FileError {
    FileError { path: path.display().to_string(), reason: reason.into() }
}

/// Read a text file of `kind`: at most its limit, UTF-8. A directory, a device or a socket is
/// refused; a pipe is read up to the limit. A named pipe nobody writes to reads as empty
/// rather than waiting for a writer.
pub fn read_text(path: &Path, kind: FileKind) -> Result<String, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| error(path, format!("cannot read: {e}")))?;
    let file_type = meta.file_type();
    let fifo = is_fifo(&file_type);
    if file_type.is_dir() {
        return Err(error(path, format!("is a directory, not a {} file", kind.name())));
    }
    if !file_type.is_file() && !fifo {
        return Err(error(path, format!("is a device or socket, not a {} file", kind.name())));
    }
    let limit = kind.limit();
    if file_type.is_file() && meta.len() > limit {
        return Err(error(path, format!("is {} bytes; a {} file may be at most {limit}", meta.len(), kind.name())));
    }
    let file = open_for_reading(path, fifo).map_err(|e| error(path, format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    let read = if fifo { read_pipe(file, limit + 1, &mut bytes) } else { file.take(limit + 1).read_to_end(&mut bytes) };
    read.map_err(|e| error(path, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(error(path, format!("is larger than {limit} bytes, the most a {} file may be", kind.name())));
    }
    let mut text = String::from_utf8(bytes).map_err(|e| error(path, format!("is not UTF-8 text ({e})")))?;
    // A byte-order mark some editors write is no text: without this, RON saw no `(` at 1:1.
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

#[cfg(unix)]
fn is_fifo(t: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    t.is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::FileType) -> bool {
    false
}

/// Open for reading; a named pipe is opened without waiting for a writer (O_NONBLOCK), and
/// read by [`read_pipe`].
#[cfg(unix)]
fn open_for_reading(path: &Path, fifo: bool) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    if !fifo {
        return std::fs::File::open(path);
    }
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_for_reading(path: &Path, _fifo: bool) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// A pipe that sends nothing for this long is given up on: a writer that holds it open and
/// never writes hung the reader for good. Data on its way keeps it reading as long as it flows.
pub const PIPE_IDLE_SECONDS: i32 = 10;

/// Up to `limit` bytes of a named pipe opened without blocking: read until its writers close
/// it (at once, as empty, if nobody has it open for writing), waiting at most
/// [`PIPE_IDLE_SECONDS`] for each next piece.
#[cfg(unix)]
fn read_pipe(mut file: std::fs::File, limit: u64, bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    use std::io::ErrorKind;
    use std::os::unix::io::AsRawFd;
    let mut buffer = [0u8; 1 << 16];
    while (bytes.len() as u64) < limit {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                let mut wait = libc::pollfd { fd: file.as_raw_fd(), events: libc::POLLIN, revents: 0 };
                // SAFETY: one pollfd on a descriptor this function owns.
                let ready = unsafe { libc::poll(&mut wait, 1, PIPE_IDLE_SECONDS * 1000) };
                if ready == 0 {
                    return Err(std::io::Error::new(
                        ErrorKind::TimedOut,
                        format!("the pipe sent nothing for {PIPE_IDLE_SECONDS} s"),
                    ));
                }
                if ready < 0 {
                    let e = std::io::Error::last_os_error();
                    if e.kind() != ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
            }
            Err(e) => return Err(e),
        }
    }
    bytes.truncate(limit as usize);
    Ok(bytes.len())
}

#[cfg(not(unix))]
fn read_pipe(file: std::fs::File, limit: u64, bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    file.take(limit).read_to_end(bytes)
}

/// Write `bytes` to `path` atomically: into a new file created exclusively beside it (a name
/// nobody can predict; an existing name or symlink there is never opened), then renamed over
/// `path`. On any failure the temporary file is removed and `path` is left as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomically_via(path, bytes, |file, bytes| file.write_all(bytes))
}

/// [`write_atomically`] with the writing of the temporary file given (tests make it fail).
pub fn write_atomically_via(
    path: &Path,
    bytes: &[u8],
    write: impl FnOnce(&mut std::fs::File, &[u8]) -> std::io::Result<()>,
) -> Result<(), FileError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Some(name) = path.file_name() else {
        return Err(error(path, "names no file"));
    };
    if path.is_dir() {
        return Err(error(path, "is a directory"));
    }
    // A device, a pipe or a socket at the name is never replaced by a file (as root, a rename
    // over /dev/null would succeed). A symlink there is replaced, never followed.
    if let Ok(m) = std::fs::symlink_metadata(path)
        && !m.file_type().is_file()
        && !m.file_type().is_symlink()
    {
        return Err(error(path, "is a device, pipe or socket, not a file to write"));
    }
    let (tmp, mut file) = create_temporary(&dir, &name.to_string_lossy()).map_err(|e| error(path, e))?;
    let written = write(&mut file, bytes).and_then(|_| file.sync_all());
    drop(file);
    if let Err(e) = written.and_then(|_| std::fs::rename(&tmp, path)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(error(path, format!("cannot write: {e}")));
    }
    Ok(())
}

/// A new file in `dir` with an unpredictable name, created with O_EXCL (create_new).
fn create_temporary(dir: &Path, base: &str) -> Result<(PathBuf, std::fs::File), String> {
    use std::hash::{BuildHasher, Hasher};
    for attempt in 0..64u32 {
        // RandomState is seeded from the OS's randomness: unguessable, without a new crate.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(attempt);
        h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        let tmp = dir.join(format!(".{base}.{:016x}.tmp", h.finish()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create a file in {}: {e}", dir.display())),
        }
    }
    Err(format!("cannot create a temporary file in {}", dir.display()))
}

/// Text from files (names, reasons) made safe to print on a terminal: control characters,
/// line breaks included, are shown as escapes (`\u{1b}`) instead of acting on the terminal.
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Control characters, and the invisible marks that reorder or hide text on a terminal.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("meshal-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_byte_order_mark_is_not_text() {
        let path = scratch("bom").join("bom.level.ron");
        std::fs::write(&path, "\u{feff}(name: \"x\")").unwrap();
        assert_eq!(read_text(&path, FileKind::Level).unwrap(), "(name: \"x\")");
    }

    #[test]
    fn devices_and_directories_are_refused_at_once() {
        let e = read_text(Path::new("/dev/zero"), FileKind::Level).unwrap_err();
        assert!(e.to_string().starts_with("/dev/zero: is a device"), "{e}");
        let e = read_text(Path::new("/"), FileKind::Log).unwrap_err();
        assert!(e.reason.contains("directory"), "{e}");
    }

    #[test]
    fn reads_are_bounded_even_without_a_size() {
        let d = scratch("bounded");
        let big = d.join("big.ron");
        std::fs::write(&big, vec![b'x'; (FileKind::Map.limit() + 1) as usize]).unwrap();
        let e = read_text(&big, FileKind::Map).unwrap_err();
        assert!(e.reason.contains("at most"), "{e}");
        // A pipe reports no size: the limit holds while reading.
        #[cfg(unix)]
        {
            let fifo = d.join("pipe");
            assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
            let writer = {
                let fifo = fifo.clone();
                std::thread::spawn(move || {
                    let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
                    let chunk = vec![b'y'; 64 * 1024];
                    for _ in 0..40 {
                        if f.write_all(&chunk).is_err() {
                            break;
                        }
                    }
                })
            };
            // Wait for the writer to open its end, so the read sees data rather than EOF.
            std::thread::sleep(std::time::Duration::from_millis(100));
            let e = read_text(&fifo, FileKind::Map).unwrap_err();
            assert!(e.reason.contains("larger than"), "{e}");
            let _ = writer.join();
            // A named pipe with no writer reads as empty, without waiting.
            assert_eq!(read_text(&fifo, FileKind::Map).unwrap(), "");
        }
    }

    #[test]
    fn atomic_writes_never_follow_a_planted_symlink_and_leave_no_debris() {
        let d = scratch("atomic");
        let victim = d.join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        let target = d.join("out.jsonl");
        // The old predictable temporary name, planted as a symlink to the victim.
        #[cfg(unix)]
        std::os::unix::fs::symlink(&victim, d.join("out.jsonl.tmp")).unwrap();
        write_atomically(&target, b"log\n").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "log\n");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        // Writing into a missing directory fails and changes nothing.
        let e = write_atomically(&d.join("nowhere/out.jsonl"), b"x").unwrap_err();
        assert!(e.reason.contains("cannot create"), "{e}");
        // A failed write leaves the existing file whole and no temporary behind.
        let e = write_atomically(&d, b"x").unwrap_err();
        assert!(e.reason.contains("directory"), "{e}");
        let names: Vec<String> =
            std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp") || n == "out.jsonl.tmp"), "{names:?}");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("Red Wolf"), "Red Wolf");
        assert_eq!(escape_controls("\u{1b}[2JEvil\nline"), "\\u{1b}[2JEvil\\u{a}line");
        assert_eq!(escape_controls("a\u{202e}b"), "a\\u{202e}b");
    }

    #[cfg(unix)]
    #[test]
    fn an_atomic_write_never_replaces_a_device() {
        let err = write_atomically(Path::new("/dev/null"), b"x").unwrap_err();
        assert!(err.to_string().contains("device"), "{err}");
        assert!(!std::fs::metadata("/dev/null").unwrap().file_type().is_file(), "/dev/null is still a device");
        let d = scratch("device");
        assert!(std::fs::read_dir(&d).unwrap().next().is_none());
    }
}
