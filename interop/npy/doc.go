// Package npy reads and writes NumPy's .npy and .npz files as tensors.
//
// Every tensorplay dtype has a NumPy dtype and back: bool, int8 … int64,
// uint8 … uint64, float32, float64, complex64 and complex128. Go's int and
// uint are stored as int64 and uint64.
//
//	x, err := npy.Load[float64]("weights.npy")   // np.load
//	err = npy.Save("out.npy", x)                 // np.save
//	arrays, err := npy.LoadNPZ("data.npz")       // dict(np.load("data.npz"))
//
// # Reading
//
// Read, ReadConvert and ReadAny read one array from an io.Reader; Load,
// LoadConvert and LoadAny read a file; ReadNPZ, ReadNPZConvert and
// (*NPZ).ReadAny read an archive entry. Files in format versions 1.0, 2.0
// and 3.0, C or Fortran order, little- or big-endian, 0-d and zero-size are
// all read. The element type is checked, never guessed: Read[float32] of a
// float64 file is a *DTypeError naming both dtypes. ReadConvert converts as
// NumPy's astype does, and ReadAny returns a tensor of the file's dtype for
// callers that dispatch on it. LoadHeader and (*NPZ).Header read only the
// header: dtype, shape, memory order and byte order.
//
// # Mapped files
//
// OpenMapped maps a .npy file as a tensor whose storage is the file
// (np.load with mmap_mode), read-only or read-write, and CreateMapped makes
// a new file mapped for writing (np.lib.format.open_memmap): nothing is
// copied, the executor streams through it releasing the pages it has
// passed, and Flush and Close report I/O errors. Linux only; elsewhere
// they return ErrMapUnsupported. See docs/out-of-core.md.
//
// # Layout
//
// A tensor read from a C-ordered file is row-major. One read from a
// Fortran-ordered file is a column-major view of the data as stored (strides
// 1, d0, d0*d1, …), as NumPy loads it; its Values are still in row-major
// order, and Contiguous makes a row-major copy. Writing is the mirror image:
// a row-major tensor is written in C order and a column-major one in Fortran
// order, each straight from storage; any other layout is written in C order
// from a copy.
//
// # Invariants
//
//   - A tensor returned by a read owns new storage; nothing else refers to it.
//   - Writes never modify or retain the tensor.
//   - Read consumes exactly one array's bytes, so a stream of arrays written
//     one after another reads back array by array, ending with io.EOF. Load
//     and archive entries must hold exactly one array: bytes after it are a
//     *LengthError.
//   - Save, SaveNPZ and SaveNPZCompressed write a temporary file in the
//     target's directory and rename it into place: a failed save leaves the
//     previous file, or none, never a partial one.
//   - Bad input never panics. It gives a *MagicError (not a .npy file), a
//     *HeaderError (malformed header, or a dtype such as float16, strings or
//     records that a tensor cannot hold), a *TruncatedError (input ends
//     early), a *LengthError (data longer than the shape) or a *DTypeError;
//     archive failures are an *ArchiveError wrapping the cause. Match them
//     with errors.As.
//   - The header is not trusted: a shape that claims more data than the input
//     holds fails before the data is allocated.
//
// # NumPy and npyio
//
// Headers are parsed and data decoded by codeberg.org/sbinet/npyio, and
// .npz archives are opened with its npz package. This package adds what
// npyio lacks: bounds on the header length and on the data a header may
// claim (npyio allocates both from the untrusted header), recovery from the
// panics npyio's header parser raises on malformed input, Fortran-order and
// N-d layouts on read (npyio reads the flat data), and the whole writer,
// since npyio writes only 1-d slices, nested Go slices and gonum matrices,
// always little-endian and in C order.
package npy
