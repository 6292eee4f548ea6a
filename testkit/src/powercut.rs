//! A power cut for SQLite: a VFS shim (`powercut`) that keeps, beside each database and WAL
//! file, the file as it was at its last sync (`<file>-durable`), and [`cut`], which puts those
//! images in place of the files, as a machine that lost power would find them: every write not
//! yet synced is gone. SQLite's own test suite checks crash safety with such a VFS (its "crash"
//! VFS); `kill -9` alone cannot, since the page cache keeps what a dead process wrote.
//!
//! Use: [`prepare`] the files, [`register`] the shim once in the process that writes, open the
//! database with `?vfs=powercut` in its URL, kill the process at any instant, then [`cut`] the
//! files before opening them again (without the shim). The model is the worst case for lost writes: nothing unsynced
//! survives (a real disk may keep some, in any order; SQLite's WAL checksums make a torn tail
//! harmless either way). A file's creation and deletion count as durable at once.
//!
//! `POWERCUT_DEBUG=1` in the writer's environment prints each sync and checks, after it, that
//! the image equals the file (the shim saw every write).

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::fs::OpenOptions;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use libsqlite3_sys as ffi;

/// The VFS's name, for `?vfs=` in a SQLite URL.
pub const VFS_NAME: &str = "powercut";

/// A write not yet synced.
enum Op {
    Write(u64, Vec<u8>),
    Truncate(u64),
}

/// The writes of each tracked file (by path) since its last sync.
fn pending() -> &'static Mutex<HashMap<String, Vec<Op>>> {
    static PENDING: OnceLock<Mutex<HashMap<String, Vec<Op>>>> = OnceLock::new();
    PENDING.get_or_init(Mutex::default)
}

/// The durable image of `path`.
fn durable(path: &str) -> PathBuf {
    PathBuf::from(format!("{path}-durable"))
}

/// Our file: SQLite's base struct (our methods), then the real VFS's file right after it.
#[repr(C)]
struct ShimFile {
    base: ffi::sqlite3_file,
    /// The real file (inside the same allocation).
    real: *mut ffi::sqlite3_file,
    /// The tracked path (a database or WAL file), leaked `CString` bytes; null otherwise.
    path: *mut String,
}

/// The real (default) VFS.
fn real_vfs() -> *mut ffi::sqlite3_vfs {
    // SAFETY: SQLite's own VFS registry; the default VFS lives for the whole process.
    unsafe { (*std::ptr::addr_of!(REAL)).0 }
}

struct RealVfs(*mut ffi::sqlite3_vfs);
// SAFETY: a pointer to SQLite's static default VFS, only read.
unsafe impl Send for RealVfs {}
unsafe impl Sync for RealVfs {}
static mut REAL: RealVfs = RealVfs(std::ptr::null_mut());

unsafe fn real_of(file: *mut ffi::sqlite3_file) -> *mut ffi::sqlite3_file {
    (*file.cast::<ShimFile>()).real
}

unsafe fn methods(real: *mut ffi::sqlite3_file) -> &'static ffi::sqlite3_io_methods {
    &*(*real).pMethods
}

unsafe fn tracked(file: *mut ffi::sqlite3_file) -> Option<&'static String> {
    let p = (*file.cast::<ShimFile>()).path;
    if p.is_null() {
        None
    } else {
        Some(&*p)
    }
}

fn lock() -> std::sync::MutexGuard<'static, HashMap<String, Vec<Op>>> {
    pending().lock().unwrap_or_else(PoisonError::into_inner)
}

unsafe extern "C" fn x_close(file: *mut ffi::sqlite3_file) -> c_int {
    let shim = file.cast::<ShimFile>();
    let real = (*shim).real;
    let rc = methods(real).xClose.map_or(ffi::SQLITE_OK, |f| f(real));
    if !(*shim).path.is_null() {
        drop(Box::from_raw((*shim).path));
        (*shim).path = std::ptr::null_mut();
    }
    rc
}

unsafe extern "C" fn x_read(
    file: *mut ffi::sqlite3_file,
    buf: *mut c_void,
    amt: c_int,
    off: ffi::sqlite3_int64,
) -> c_int {
    let real = real_of(file);
    methods(real)
        .xRead
        .map_or(ffi::SQLITE_IOERR, |f| f(real, buf, amt, off))
}

unsafe extern "C" fn x_write(
    file: *mut ffi::sqlite3_file,
    buf: *const c_void,
    amt: c_int,
    off: ffi::sqlite3_int64,
) -> c_int {
    let real = real_of(file);
    let rc = methods(real)
        .xWrite
        .map_or(ffi::SQLITE_IOERR, |f| f(real, buf, amt, off));
    if rc == ffi::SQLITE_OK {
        if let Some(path) = tracked(file) {
            let data =
                std::slice::from_raw_parts(buf.cast::<u8>(), usize::try_from(amt).unwrap_or(0));
            lock()
                .entry(path.clone())
                .or_default()
                .push(Op::Write(u64::try_from(off).unwrap_or(0), data.to_vec()));
        }
    }
    rc
}

unsafe extern "C" fn x_truncate(file: *mut ffi::sqlite3_file, size: ffi::sqlite3_int64) -> c_int {
    let real = real_of(file);
    let rc = methods(real)
        .xTruncate
        .map_or(ffi::SQLITE_IOERR, |f| f(real, size));
    if rc == ffi::SQLITE_OK {
        if let Some(path) = tracked(file) {
            lock()
                .entry(path.clone())
                .or_default()
                .push(Op::Truncate(u64::try_from(size).unwrap_or(0)));
        }
    }
    rc
}

/// Applies `ops` to the durable image of `path`.
fn apply(path: &str, ops: Vec<Op>) -> std::io::Result<()> {
    let f = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(durable(path))?;
    for op in ops {
        match op {
            Op::Write(off, data) => f.write_all_at(&data, off)?,
            Op::Truncate(size) => f.set_len(size)?,
        }
    }
    Ok(())
}

unsafe extern "C" fn x_sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    let real = real_of(file);
    let rc = methods(real)
        .xSync
        .map_or(ffi::SQLITE_IOERR, |f| f(real, flags));
    if rc == ffi::SQLITE_OK {
        if let Some(path) = tracked(file) {
            // Held while applying: the image follows the syncs in order.
            let mut all = lock();
            let ops = all.remove(path).unwrap_or_default();
            if std::env::var_os("POWERCUT_DEBUG").is_some() {
                eprintln!("sync {path}: {} ops", ops.len());
            }
            if apply(path, ops).is_err() {
                return ffi::SQLITE_IOERR_FSYNC;
            }
            if std::env::var_os("POWERCUT_DEBUG").is_some() {
                let real = std::fs::read(path).unwrap_or_default();
                let image = std::fs::read(durable(path)).unwrap_or_default();
                if real != image {
                    let first = real
                        .iter()
                        .zip(&image)
                        .position(|(a, b)| a != b)
                        .map(|i| i / 4096 + 1);
                    eprintln!(
                        "MISMATCH {path}: real {} image {} first page {first:?}",
                        real.len(),
                        image.len()
                    );
                }
            }
            all.insert(path.clone(), Vec::new());
        }
    }
    rc
}

unsafe extern "C" fn x_file_size(
    file: *mut ffi::sqlite3_file,
    size: *mut ffi::sqlite3_int64,
) -> c_int {
    let real = real_of(file);
    methods(real)
        .xFileSize
        .map_or(ffi::SQLITE_IOERR, |f| f(real, size))
}

unsafe extern "C" fn x_lock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    let real = real_of(file);
    methods(real)
        .xLock
        .map_or(ffi::SQLITE_IOERR, |f| f(real, level))
}

unsafe extern "C" fn x_unlock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    let real = real_of(file);
    methods(real)
        .xUnlock
        .map_or(ffi::SQLITE_IOERR, |f| f(real, level))
}

unsafe extern "C" fn x_check_reserved_lock(file: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    let real = real_of(file);
    methods(real)
        .xCheckReservedLock
        .map_or(ffi::SQLITE_IOERR, |f| f(real, out))
}

unsafe extern "C" fn x_file_control(
    file: *mut ffi::sqlite3_file,
    op: c_int,
    arg: *mut c_void,
) -> c_int {
    let real = real_of(file);
    methods(real)
        .xFileControl
        .map_or(ffi::SQLITE_NOTFOUND, |f| f(real, op, arg))
}

unsafe extern "C" fn x_sector_size(file: *mut ffi::sqlite3_file) -> c_int {
    let real = real_of(file);
    methods(real).xSectorSize.map_or(4096, |f| f(real))
}

unsafe extern "C" fn x_device_characteristics(file: *mut ffi::sqlite3_file) -> c_int {
    let real = real_of(file);
    methods(real).xDeviceCharacteristics.map_or(0, |f| f(real))
}

unsafe extern "C" fn x_shm_map(
    file: *mut ffi::sqlite3_file,
    pg: c_int,
    pgsz: c_int,
    extend: c_int,
    pp: *mut *mut c_void,
) -> c_int {
    let real = real_of(file);
    methods(real)
        .xShmMap
        .map_or(ffi::SQLITE_IOERR, |f| f(real, pg, pgsz, extend, pp))
}

unsafe extern "C" fn x_shm_lock(
    file: *mut ffi::sqlite3_file,
    off: c_int,
    n: c_int,
    flags: c_int,
) -> c_int {
    let real = real_of(file);
    methods(real)
        .xShmLock
        .map_or(ffi::SQLITE_IOERR, |f| f(real, off, n, flags))
}

unsafe extern "C" fn x_shm_barrier(file: *mut ffi::sqlite3_file) {
    let real = real_of(file);
    if let Some(f) = methods(real).xShmBarrier {
        f(real);
    }
}

unsafe extern "C" fn x_shm_unmap(file: *mut ffi::sqlite3_file, delete: c_int) -> c_int {
    let real = real_of(file);
    methods(real)
        .xShmUnmap
        .map_or(ffi::SQLITE_OK, |f| f(real, delete))
}

/// Version 2: shared memory (WAL), no memory-mapped I/O.
static IO_METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 2,
    xClose: Some(x_close),
    xRead: Some(x_read),
    xWrite: Some(x_write),
    xTruncate: Some(x_truncate),
    xSync: Some(x_sync),
    xFileSize: Some(x_file_size),
    xLock: Some(x_lock),
    xUnlock: Some(x_unlock),
    xCheckReservedLock: Some(x_check_reserved_lock),
    xFileControl: Some(x_file_control),
    xSectorSize: Some(x_sector_size),
    xDeviceCharacteristics: Some(x_device_characteristics),
    xShmMap: Some(x_shm_map),
    xShmLock: Some(x_shm_lock),
    xShmBarrier: Some(x_shm_barrier),
    xShmUnmap: Some(x_shm_unmap),
    xFetch: None,
    xUnfetch: None,
};

/// The real VFS's file size, aligned for the struct placed after ours.
fn shim_size() -> usize {
    std::mem::size_of::<ShimFile>().next_multiple_of(16)
}

unsafe extern "C" fn x_open(
    _vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    let real_vfs = real_vfs();
    let shim = file.cast::<ShimFile>();
    let real = file
        .cast::<u8>()
        .add(shim_size())
        .cast::<ffi::sqlite3_file>();
    (*shim).base.pMethods = std::ptr::null();
    (*shim).real = real;
    (*shim).path = std::ptr::null_mut();
    let Some(open) = (*real_vfs).xOpen else {
        return ffi::SQLITE_ERROR;
    };
    let rc = open(real_vfs, name, real, flags, out_flags);
    if rc != ffi::SQLITE_OK {
        return rc;
    }
    (*shim).base.pMethods = &IO_METHODS;
    let kept = flags & (ffi::SQLITE_OPEN_MAIN_DB | ffi::SQLITE_OPEN_WAL) != 0;
    if kept && !name.is_null() {
        let path = CStr::from_ptr(name).to_string_lossy().into_owned();
        let mut all = lock();
        if !all.contains_key(&path) {
            // The image [`prepare`] made before this process started; a file it did not know
            // was made by this process (as found now, empty: durable at once).
            let image = durable(&path);
            let same = match (std::fs::read(&path), std::fs::read(&image)) {
                (Ok(real), Ok(kept)) => real == kept,
                _ => false,
            };
            if !same {
                // Not prepared, or the files moved after [`prepare`]: the file as it is now.
                let tmp = PathBuf::from(format!("{path}-durable-tmp"));
                if std::fs::copy(&path, &tmp).is_ok() {
                    let _ = std::fs::rename(&tmp, &image);
                }
            }
            all.insert(path.clone(), Vec::new());
        }
        drop(all);
        (*shim).path = Box::into_raw(Box::new(path));
    }
    rc
}

unsafe extern "C" fn x_delete(
    _vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    sync_dir: c_int,
) -> c_int {
    let real_vfs = real_vfs();
    let Some(delete) = (*real_vfs).xDelete else {
        return ffi::SQLITE_ERROR;
    };
    let rc = delete(real_vfs, name, sync_dir);
    if rc == ffi::SQLITE_OK && !name.is_null() {
        let path = CStr::from_ptr(name).to_string_lossy().into_owned();
        let mut all = lock();
        if all.remove(&path).is_some() {
            let _ = std::fs::remove_file(durable(&path));
        }
    }
    rc
}

unsafe extern "C" fn x_access(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    flags: c_int,
    out: *mut c_int,
) -> c_int {
    let _ = vfs;
    let real_vfs = real_vfs();
    (*real_vfs)
        .xAccess
        .map_or(ffi::SQLITE_ERROR, |f| f(real_vfs, name, flags, out))
}

unsafe extern "C" fn x_full_pathname(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    n: c_int,
    out: *mut c_char,
) -> c_int {
    let _ = vfs;
    let real_vfs = real_vfs();
    (*real_vfs)
        .xFullPathname
        .map_or(ffi::SQLITE_ERROR, |f| f(real_vfs, name, n, out))
}

/// Registers the `powercut` VFS (not as the default); later calls do nothing.
///
/// # Panics
/// If SQLite has no default VFS or refuses the registration.
pub fn register() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        // SAFETY: SQLite's C API, called once; the VFS struct is leaked (it must outlive every
        // connection).
        unsafe {
            assert_eq!(ffi::sqlite3_initialize(), ffi::SQLITE_OK);
            let real = ffi::sqlite3_vfs_find(std::ptr::null());
            assert!(!real.is_null(), "no default SQLite VFS");
            *std::ptr::addr_of_mut!(REAL) = RealVfs(real);
            let mut vfs: ffi::sqlite3_vfs = *real;
            vfs.szOsFile = i32::try_from(shim_size()).unwrap_or(i32::MAX) + (*real).szOsFile;
            vfs.pNext = std::ptr::null_mut();
            vfs.zName = c"powercut".as_ptr();
            vfs.pAppData = std::ptr::null_mut();
            vfs.xOpen = Some(x_open);
            vfs.xDelete = Some(x_delete);
            vfs.xAccess = Some(x_access);
            vfs.xFullPathname = Some(x_full_pathname);
            let vfs = Box::leak(Box::new(vfs));
            assert_eq!(ffi::sqlite3_vfs_register(vfs, 0), ffi::SQLITE_OK);
        }
    });
}

/// Before a process writes `db` through the shim: its files (the database, its WAL) as they
/// are now are their durable images (the shim only follows the writes from there). Made here,
/// with the files at rest, rather than by the writer at its first opening, where a kill in the
/// middle of the copy would leave half an image.
///
/// # Errors
/// File system errors.
pub fn prepare(db: &Path) -> std::io::Result<()> {
    for suffix in ["", "-wal"] {
        let file = PathBuf::from(format!("{}{suffix}", db.display()));
        let image = durable(&file.to_string_lossy());
        if file.exists() {
            std::fs::copy(&file, &image)?;
        } else if image.exists() {
            std::fs::remove_file(&image)?;
        }
    }
    Ok(())
}

/// The power cut, after the writing process died: each of `db`'s files (the database, its
/// WAL) becomes its durable image (removed if it never had one: it was never synced), and the
/// shared-memory index goes (it is rebuilt from the WAL).
///
/// # Errors
/// File system errors.
pub fn cut(db: &Path) -> std::io::Result<()> {
    for suffix in ["", "-wal"] {
        let file = PathBuf::from(format!("{}{suffix}", db.display()));
        let image = durable(&file.to_string_lossy());
        if image.exists() {
            std::fs::rename(&image, &file)?;
        } else if file.exists() {
            std::fs::remove_file(&file)?;
        }
    }
    let shm = PathBuf::from(format!("{}-shm", db.display()));
    if shm.exists() {
        std::fs::remove_file(shm)?;
    }
    Ok(())
}

use anyhow::Context as _;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom as _;
use rand::{Rng as _, SeedableRng as _};
use std::time::Duration;

/// Games played at once by the child (one channel each): channels `CHANNEL0 + n`.
const CHANNEL0: u64 = 5_000;

/// A new game in `ch` (user 1 plays White, user 2 Black).
async fn start_game(
    svc: &makruk_bot::game::GameService,
    ch: makruk_bot::game::ChannelId,
) -> anyhow::Result<()> {
    use makruk_bot::game::{ColorChoice, Terms, UserId};
    let (white, black) = (UserId(1), UserId(2));
    let terms = Terms {
        color: ColorChoice::White,
        ..Terms::default()
    };
    match svc.challenge(ch, white, black, false, terms).await {
        Ok(c) => svc.accept(ch, black, Some(c.id)).await?,
        // The last process was killed between the challenge and its answer.
        Err(makruk_bot::game::ServiceError::ChallengePending(_)) => {
            svc.accept(ch, black, None).await?
        }
        Err(e) => return Err(e.into()),
    };
    Ok(())
}

/// The writing child: the game service on `db` through the `powercut` VFS, `games` games
/// moving at once (random legal moves, a new game where one ends), each confirmed move printed
/// on stdout as `ACK <game> <ply> <san>` (0-based ply) once `play` returned. Runs until killed.
///
/// # Errors
/// When the database cannot be opened or a request fails.
pub async fn child(db: &Path, games: usize, seed: u64) -> anyhow::Result<()> {
    use makruk_bot::game::{ChannelId, GameService, ServiceError};
    use std::io::Write as _;
    register();
    let url = format!("sqlite://{}?vfs={VFS_NAME}", db.display());
    let options = makruk_bot::store::StoreOptions {
        commit_alone: std::env::var_os("POWERCUT_COMMIT_ALONE").is_some(),
        ..Default::default()
    };
    let svc = GameService::open_with(&url, options).await?;
    let mut tasks = Vec::new();
    for g in 0..games {
        let svc = svc.clone();
        let ch = ChannelId(CHANNEL0 + g as u64);
        let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(1_000).wrapping_add(g as u64));
        tasks.push(tokio::spawn(async move {
            loop {
                let board = match svc.board(ch).await {
                    Ok(b) if b.status.end.is_none() => b,
                    Ok(_) | Err(ServiceError::NoGameHere) => {
                        start_game(&svc, ch).await?;
                        continue;
                    }
                    Err(e) => return Err(e.into()),
                };
                let moves = board.position.legal_moves();
                let Some(m) = moves.choose(&mut rng) else {
                    anyhow::bail!("an active game without a legal move");
                };
                let san = makruk::san::to_san(&board.position, m);
                let reply = svc.play(ch, board.status.to_move, &san).await?;
                let ply = reply.status.plies - 1;
                let mut out = std::io::stdout().lock();
                writeln!(out, "ACK {} {ply} {san}", reply.game_id.0)?;
                out.flush()?;
            }
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(())
}

/// How a run of power cuts goes.
#[derive(Clone, Debug)]
pub struct Config {
    /// How many power cuts.
    pub cuts: u32,
    /// Games moving at once.
    pub games: usize,
    /// The child's time alive before each cut: a random duration in this range (ms).
    pub alive_ms: (u64, u64),
    /// The random seed (cut moments, moves).
    pub seed: u64,
    /// The child binary: run as `<child> --child <db> <games> <seed>`.
    pub child: PathBuf,
    /// Where the database goes.
    pub dir: PathBuf,
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Power cuts done.
    pub cuts: u32,
    /// Moves confirmed to the child's requests (all runs).
    pub acked: u64,
    /// Confirmed moves missing after a cut, or stored with another SAN (must be 0).
    pub lost: Vec<String>,
    /// `PRAGMA integrity_check` findings after a cut (must be none).
    pub integrity: Vec<String>,
    /// Games that could not be read after a cut (must be none).
    pub unreadable: Vec<String>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} power cuts, {} confirmed moves, {} lost, {} integrity problems, {} unreadable games",
            self.cuts,
            self.acked,
            self.lost.len(),
            self.integrity.len(),
            self.unreadable.len()
        )?;
        for l in self
            .lost
            .iter()
            .chain(&self.integrity)
            .chain(&self.unreadable)
            .take(10)
        {
            write!(f, "\n  {l}")?;
        }
        Ok(())
    }
}

/// Runs `cfg.cuts` power cuts: each time the child writes for a random while and is killed
/// with SIGKILL, the files are cut back to what was synced ([`cut`]), and the database is
/// opened again (without the shim) and checked: every move ever confirmed is stored (game,
/// ply, SAN), the database is whole, every game can be read.
///
/// # Errors
/// When the child cannot be started or the database cannot be opened at all.
pub async fn run(cfg: &Config) -> anyhow::Result<Report> {
    use makruk_bot::game::{ChannelId, GameService};
    use tokio::io::AsyncBufReadExt as _;
    let db = cfg.dir.join("powercut.sqlite3");
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut acked: HashMap<(i64, i64), String> = HashMap::new();
    let mut report = Report::default();
    for round in 0..cfg.cuts {
        prepare(&db)?;
        let mut child = tokio::process::Command::new(&cfg.child)
            .arg("--child")
            .arg(&db)
            .arg(cfg.games.to_string())
            .arg((cfg.seed + u64::from(round)).to_string())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start {}", cfg.child.display()))?;
        let stdout = child.stdout.take().context("the child's stdout")?;
        let mut lines = tokio::io::BufReader::new(stdout).lines();
        let alive = Duration::from_millis(rng.random_range(cfg.alive_ms.0..=cfg.alive_ms.1));
        let deadline = tokio::time::Instant::now() + alive;
        // Only what was read before the kill counts as confirmed.
        loop {
            match tokio::time::timeout_at(deadline, lines.next_line()).await {
                Ok(Ok(Some(line))) => {
                    let mut parts = line.splitn(4, ' ');
                    if let (Some("ACK"), Some(game), Some(ply), Some(san)) =
                        (parts.next(), parts.next(), parts.next(), parts.next())
                    {
                        acked.insert((game.parse()?, ply.parse()?), san.to_owned());
                        report.acked += 1;
                    }
                }
                Ok(Ok(None)) => {
                    let status = child.wait().await?;
                    anyhow::bail!("the child stopped by itself ({status})");
                }
                Ok(Err(e)) => return Err(e.into()),
                Err(_) => break,
            }
        }
        child.start_kill()?;
        child.wait().await?;
        report.cuts += 1;
        cut(&db)?;
        // The files as the power cut left them, for a look when something is wrong.
        let kept = cfg.dir.join("last-cut");
        std::fs::create_dir_all(&kept)?;
        for suffix in ["", "-wal"] {
            let file = PathBuf::from(format!("{}{suffix}", db.display()));
            let copy = kept.join(format!("powercut.sqlite3{suffix}"));
            if file.exists() {
                std::fs::copy(&file, &copy)?;
            } else if copy.exists() {
                std::fs::remove_file(&copy)?;
            }
        }
        // Opened as the bot would after the power came back.
        let url = format!("sqlite://{}", db.display());
        let svc = match GameService::open(&url).await {
            Ok(svc) => svc,
            Err(e) => {
                report
                    .integrity
                    .push(format!("after cut {round} (alive {alive:?}): {e:#}"));
                break;
            }
        };
        {
            let mut conn = svc.store().read_conn().await?;
            let found: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
                .fetch_all(&mut *conn)
                .await?;
            if found != ["ok"] {
                report
                    .integrity
                    .extend(found.into_iter().map(|f| format!("after cut {round}: {f}")));
            }
            let stored: Vec<(i64, i64, String)> =
                sqlx::query_as("SELECT game_id, ply, san FROM moves")
                    .fetch_all(&mut *conn)
                    .await?;
            let stored: HashMap<(i64, i64), String> =
                stored.into_iter().map(|(g, p, s)| ((g, p), s)).collect();
            for (key, san) in &acked {
                match stored.get(key) {
                    Some(s) if s == san => {}
                    other => report.lost.push(format!(
                        "after cut {round}: game {} ply {} confirmed as {san}, stored {other:?}",
                        key.0, key.1
                    )),
                }
            }
        }
        for g in 0..cfg.games {
            let ch = ChannelId(CHANNEL0 + g as u64);
            match svc.board(ch).await {
                Ok(_) | Err(makruk_bot::game::ServiceError::NoGameHere) => {}
                Err(e) => report
                    .unreadable
                    .push(format!("after cut {round}: channel {}: {e}", ch.0)),
            }
        }
        svc.close().await;
        drop(svc);
        // The files must be at rest before the next round copies them (`prepare`): no
        // connection of this process open (`close` waits for them all; one still open might
        // write while the files are copied, a fault of the harness, not of SQLite, so it
        // stops the run rather than count as a finding).
        let rest = tokio::time::Instant::now() + Duration::from_secs(30);
        while !at_rest(&db) {
            anyhow::ensure!(
                tokio::time::Instant::now() < rest,
                "after cut {round}: the database is not at rest 30 s after the store closed"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        if !report.lost.is_empty() || !report.integrity.is_empty() {
            break;
        }
    }
    Ok(report)
}

/// Whether no connection of this process has `db` open: on Linux from the process's open
/// files; elsewhere when its WAL file is gone (the last connection's close deletes it).
fn at_rest(db: &Path) -> bool {
    if let Ok(fds) = std::fs::read_dir("/proc/self/fd") {
        let name = db.to_string_lossy().into_owned();
        return !fds
            .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
            .any(|l| l.to_string_lossy().starts_with(&name));
    }
    !PathBuf::from(format!("{}-wal", db.display())).exists()
}
