//! Records that cross the boundary as typed frozen pyclasses instead of positional tuples:
//! built in Python by keyword (every field required), read back as attributes. Each field is
//! written once, in the macro call.

/// `From` both ways between two structs with the same named fields.
macro_rules! same_fields {
    ($a:ident, $b:ident { $($f:ident),* $(,)? }) => {
        impl From<$a> for $b {
            fn from(x: $a) -> Self {
                Self { $($f: x.$f),* }
            }
        }
        impl From<$b> for $a {
            fn from(x: $b) -> Self {
                Self { $($f: x.$f),* }
            }
        }
    };
}

/// A frozen pyclass of named fields with a keyword-only constructor (every field required),
/// the fields read back as attributes; it can be a field of another one (`from_py_object`).
macro_rules! keyword_class {
    ($(#[$doc:meta])* $name:ident { $($f:ident: $t:ty),* $(,)? }) => {
        $(#[$doc])*
        #[pyo3::pyclass(module = "cardcore._core", frozen, get_all, eq, from_py_object)]
        #[derive(Clone, PartialEq)]
        pub struct $name {
            $($f: $t),*
        }

        #[pyo3::pymethods]
        impl $name {
            #[new]
            #[pyo3(signature = (*, $($f),*))]
            #[allow(clippy::too_many_arguments)]
            fn new($($f: $t),*) -> Self {
                Self { $($f),* }
            }
        }
    };
}

/// A [`keyword_class!`] mirroring an engine struct field for field, converted to it (and back)
/// by `From`, which stops compiling when the engine's fields change; `Copy` like the engine's.
macro_rules! boundary_struct {
    ($(#[$doc:meta])* $name:ident => $engine:ident { $($f:ident: $t:ty),* $(,)? }) => {
        $crate::boundary::keyword_class!($(#[$doc])* $name { $($f: $t),* });

        impl Copy for $name {}

        $crate::boundary::same_fields!($name, $engine { $($f),* });
    };
}

pub(crate) use {boundary_struct, keyword_class, same_fields};
