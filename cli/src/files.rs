//! Inputs (files, directories walked with `-r`, standard input) and atomic outputs.

use std::collections::HashMap;
use std::fs::{self, File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::errors::{Failure, eprintln_safe};

/// One input: standard input, or a file with the path it gets under an output directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input ("-" or no input given).
    Stdin,
    /// A file; `relative` is its path below `--out-dir`.
    File { path: PathBuf, relative: PathBuf },
}

impl Input {
    /// How the input is named in messages.
    pub fn display(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_owned(),
            Input::File { path, .. } => path.display().to_string(),
        }
    }
}

/// What identifies a file whatever the path it is reached by (hard links, symbolic links,
/// `./a` and `a`): its device and inode on Unix, its canonical path elsewhere.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileId(#[cfg(unix)] (u64, u64), #[cfg(not(unix))] PathBuf);

impl FileId {
    /// The identity of the file `path` names (symbolic links followed), if it exists.
    pub fn of(path: &Path) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = fs::metadata(path).ok()?;
            Some(FileId((meta.dev(), meta.ino())))
        }
        #[cfg(not(unix))]
        {
            fs::canonicalize(path).ok().map(FileId)
        }
    }
}

/// The inputs named on the command line, directories walked (sorted) if `recursive`, each
/// file once: a file named again (by the same path, another path, or a link) is dropped with
/// a notice on standard error, so that no mode converts or overwrites it twice. A directory
/// `skip` (the output directory) is not walked, nor are the temporary files an interrupted
/// run leaves ([`is_leftover_temp`]).
pub fn expand(args: &[PathBuf], recursive: bool, skip: Option<&Path>) -> Result<Vec<Input>, Failure> {
    if args.is_empty() {
        return Ok(vec![Input::Stdin]);
    }
    let skip = skip.and_then(FileId::of);
    let mut inputs = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        let meta = fs::metadata(arg).map_err(|e| Failure::Message(format!("{}: {e}", arg.display())))?;
        if meta.is_dir() {
            if !recursive {
                return Err(Failure::Usage(format!(
                    "{} is a directory (use -r to convert the files in it)",
                    arg.display()
                )));
            }
            walk(arg, arg, skip.as_ref(), &mut inputs)?;
        } else {
            let relative = arg.file_name().map(PathBuf::from).unwrap_or_else(|| arg.clone());
            inputs.push(Input::File {
                path: arg.clone(),
                relative,
            });
        }
    }
    Ok(dedupe(inputs, FileId::of, eprintln_safe))
}

/// `inputs` without the files named before (by identity, `id`), each dropped one reported
/// through `notice`. One identity lookup per input.
pub fn dedupe(
    inputs: Vec<Input>,
    id: impl Fn(&Path) -> Option<FileId>,
    mut notice: impl FnMut(&str),
) -> Vec<Input> {
    let mut seen: HashMap<FileId, PathBuf> = HashMap::new();
    let mut kept = Vec::with_capacity(inputs.len());
    for input in inputs {
        if let Input::File { path, .. } = &input
            && let Some(file) = id(path)
        {
            if let Some(first) = seen.get(&file) {
                notice(&format!(
                    "simdenc: {} is the same file as {}; it is converted once",
                    path.display(),
                    first.display()
                ));
                continue;
            }
            seen.insert(file, path.clone());
        }
        kept.push(input);
    }
    kept
}

/// Whether `name` is that of a temporary output file ([`OutputFile`]: `.NAME.simdenc-XXXXXX.tmp`),
/// which only a run killed before it could remove it leaves behind.
pub fn is_leftover_temp(name: &str) -> bool {
    let Some(stem) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    match stem.rsplit_once(".simdenc-") {
        Some((_, random)) => {
            random.len() == TEMP_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
        }
        None => false,
    }
}

/// The length of the random part of a temporary file's name.
const TEMP_RANDOM_LEN: usize = 6;

/// Adds the files below `dir` (symbolic links to directories are not followed; the
/// directory `skip` and leftover temporary files are left out).
fn walk(root: &Path, dir: &Path, skip: Option<&FileId>, inputs: &mut Vec<Input>) -> Result<(), Failure> {
    let read_error = |e: io::Error| Failure::Message(format!("{}: {e}", dir.display()));
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(read_error)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(read_error)?;
    entries.sort();
    for path in entries {
        let link =
            fs::symlink_metadata(&path).map_err(|e| Failure::Message(format!("{}: {e}", path.display())))?;
        if link.is_dir() {
            if skip.is_some() && FileId::of(&path).as_ref() == skip {
                continue;
            }
            walk(root, &path, skip, inputs)?;
        } else if fs::metadata(&path).map(|m| m.is_file()).unwrap_or(false) {
            if path
                .file_name()
                .is_some_and(|name| is_leftover_temp(&name.to_string_lossy()))
            {
                eprintln_safe(&format!(
                    "simdenc: skipping {}: a temporary file that an interrupted simdenc run left \
                     (delete it once no simdenc is running)",
                    path.display()
                ));
                continue;
            }
            let relative = path
                .strip_prefix(root)
                .map(Path::to_path_buf)
                .unwrap_or_else(|_| path.clone());
            inputs.push(Input::File { path, relative });
        }
    }
    Ok(())
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    matches!((FileId::of(a), FileId::of(b)), (Some(x), Some(y)) if x == y)
}

/// The file that `path` names with its symbolic links followed, as `open(2)` follows them
/// to create a file: a link to a file that does not exist yet resolves to where that file
/// would be. Only the last component is followed (directories above are the kernel's).
pub fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    // Linux's limit (MAXSYMLINKS).
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}

/// An output file written under a temporary name in its directory and renamed into place
/// by [`OutputFile::commit`]; dropped without commit, the temporary file is removed and the
/// target is untouched. A target that exists and is not a regular file (`/dev/null`, a FIFO,
/// a terminal) is written directly instead: renaming over it would replace the device.
pub enum OutputFile {
    Atomic {
        temp: NamedTempFile,
        target: PathBuf,
        sync: bool,
    },
    Direct(File),
}

impl OutputFile {
    /// Creates the temporary file next to `target`. The result gets the permissions of
    /// `like` (the file it replaces), or those of a new file. With `sync`, the data is
    /// flushed to disk before the rename (for `--in-place`, where the original is lost).
    pub fn create(target: &Path, like: Option<&Metadata>, sync: bool) -> io::Result<OutputFile> {
        match fs::metadata(target) {
            Ok(meta) if meta.is_dir() => {
                return Err(io::Error::new(io::ErrorKind::IsADirectory, "it is a directory"));
            }
            Ok(meta) if !meta.is_file() => {
                return Ok(OutputFile::Direct(
                    fs::OpenOptions::new().write(true).open(target)?,
                ));
            }
            _ => {}
        }
        // Through a symbolic link: replace (or create) the file it points to, not the link,
        // as a shell's `>` does.
        let resolved = follow_links(target)?;
        let target = resolved.as_path();
        let dir = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut builder = tempfile::Builder::new();
        let prefix = format!(".{name}.simdenc-");
        builder.prefix(&prefix).suffix(".tmp").rand_bytes(TEMP_RANDOM_LEN);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Like a file created by open(2): 0666 less the umask.
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let temp = builder.tempfile_in(dir)?;
        if let Some(meta) = like {
            fs::set_permissions(temp.path(), meta.permissions())?;
        }
        Ok(OutputFile::Atomic {
            temp,
            target: target.to_path_buf(),
            sync,
        })
    }

    /// The file to write to.
    pub fn file(&mut self) -> &mut File {
        match self {
            OutputFile::Atomic { temp, .. } => temp.as_file_mut(),
            OutputFile::Direct(file) => file,
        }
    }

    /// Renames the temporary file onto the target.
    pub fn commit(self) -> io::Result<()> {
        match self {
            OutputFile::Atomic { temp, target, sync } => {
                if sync {
                    temp.as_file().sync_all()?;
                }
                temp.persist(&target).map(drop).map_err(|e| e.error)
            }
            OutputFile::Direct(mut file) => io::Write::flush(&mut file),
        }
    }
}

/// Opens an input file, with a message naming it on failure.
pub fn open(path: &Path) -> Result<(File, Metadata), String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if meta.is_dir() {
        return Err(format!("cannot read {}: it is a directory", path.display()));
    }
    Ok((file, meta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn leftover_temp_names() {
        assert!(is_leftover_temp(".a.txt.simdenc-Ab3xYz.tmp"));
        assert!(is_leftover_temp("..simdenc-000000.tmp"));
        for name in [
            "a.txt.simdenc-Ab3xYz.tmp",  // not hidden
            ".a.txt.simdenc-Ab3xY.tmp",  // 5 random characters
            ".a.txt.simdenc-Ab3xYz.txt", // not .tmp
            ".a.txt.simdenc-Ab-xYz.tmp", // not alphanumeric
            ".a.txt.tmp",
            ".tmp",
        ] {
            assert!(!is_leftover_temp(name), "{name}");
        }
        // The names this program gives its temporary files are recognised.
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        let output = OutputFile::create(&target, None, false).unwrap();
        let OutputFile::Atomic { temp, .. } = &output else {
            panic!("a new file is written atomically");
        };
        let name = temp.path().file_name().unwrap().to_string_lossy().into_owned();
        assert!(is_leftover_temp(&name), "{name}");
    }

    #[test]
    fn dedupe_by_identity_with_one_lookup_each() {
        let file = |p: &str| Input::File {
            path: PathBuf::from(p),
            relative: PathBuf::from(p),
        };
        // "a", "./a" and "link" are one file; "b" another; "gone" has no identity.
        let id_of = |p: &Path| match p.to_str().unwrap() {
            "a" | "./a" | "link" => Some(FileId::of(Path::new(".")).unwrap()),
            "b" => Some(FileId::of(Path::new("/")).unwrap()),
            _ => None,
        };
        let lookups = Cell::new(0);
        let mut notices = Vec::new();
        let inputs = vec![
            file("a"),
            file("b"),
            file("./a"),
            Input::Stdin,
            file("gone"),
            file("link"),
            file("gone"),
            file("b"),
        ];
        let n = inputs.len();
        let kept = dedupe(
            inputs,
            |p| {
                lookups.set(lookups.get() + 1);
                id_of(p)
            },
            |line| notices.push(line.to_owned()),
        );
        assert_eq!(
            kept,
            vec![file("a"), file("b"), Input::Stdin, file("gone"), file("gone")]
        );
        assert_eq!(notices.len(), 3);
        assert!(notices[0].contains("./a is the same file as a"), "{notices:?}");
        assert!(lookups.get() < n, "{} lookups", lookups.get());
    }

    #[cfg(unix)]
    #[test]
    fn follow_links_to_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("sub/target.txt", &link).unwrap();
        assert_eq!(follow_links(&link).unwrap(), dir.path().join("sub/target.txt"));
        let chain = dir.path().join("chain");
        std::os::unix::fs::symlink(&link, &chain).unwrap();
        assert_eq!(follow_links(&chain).unwrap(), dir.path().join("sub/target.txt"));
        let a = dir.path().join("loop-a");
        let b = dir.path().join("loop-b");
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        assert!(follow_links(&a).is_err());
        let plain = dir.path().join("plain");
        assert_eq!(follow_links(&plain).unwrap(), plain);
    }
}
