//! Inputs (files, directories walked with `-r`, standard input) and atomic outputs.

use std::fs::{self, File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::errors::Failure;

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

/// The inputs named on the command line, directories walked (sorted) if `recursive`.
pub fn expand(args: &[PathBuf], recursive: bool) -> Result<Vec<Input>, Failure> {
    if args.is_empty() {
        return Ok(vec![Input::Stdin]);
    }
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
            walk(arg, arg, &mut inputs)?;
        } else {
            let relative = arg.file_name().map(PathBuf::from).unwrap_or_else(|| arg.clone());
            inputs.push(Input::File {
                path: arg.clone(),
                relative,
            });
        }
    }
    Ok(inputs)
}

/// Adds the files below `dir` (symbolic links to directories are not followed).
fn walk(root: &Path, dir: &Path, inputs: &mut Vec<Input>) -> Result<(), Failure> {
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
            walk(root, &path, inputs)?;
        } else if fs::metadata(&path).map(|m| m.is_file()).unwrap_or(false) {
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
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    }
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
        // Through a symbolic link: replace the file it points to, not the link.
        let resolved = match fs::symlink_metadata(target) {
            Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(target).ok(),
            _ => None,
        };
        let target = resolved.as_deref().unwrap_or(target);
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
        builder.prefix(&prefix).suffix(".tmp");
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
