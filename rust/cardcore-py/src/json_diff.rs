//! `web_diffs`: the operations that turn one JSON document (Python dicts, lists and scalars)
//! into another, for the web table's patches (`cardcore.web.patch.diff` documents the format
//! and the rules). It walks both documents on the Python objects themselves: a member that is
//! the same object in both is skipped at once, so the parts of a view that did not change cost
//! one pointer comparison.

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList};

type Memo<'py> = HashMap<(usize, usize), (Vec<Bound<'py, PyAny>>, Vec<Bound<'py, PyAny>>)>;

struct Diff<'py> {
    py: Python<'py>,
    out: Bound<'py, PyList>,
    path: Vec<Bound<'py, PyAny>>,
    /// The operations written for a pair of objects (by address; both documents hold them
    /// while the call lasts) and the path where: the same pair at the same path in another
    /// pair of documents (a public pile every seat's view shares) is compared once.
    memo: Memo<'py>,
}

impl<'py> Diff<'py> {
    /// The current path, with `last` after it when given.
    fn path(&self, last: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::new(self.py, &self.path)?;
        if let Some(key) = last {
            list.append(key)?;
        }
        Ok(list)
    }

    fn set(&self, key: Option<&Bound<'py, PyAny>>, value: &Bound<'py, PyAny>) -> PyResult<()> {
        let op = PyList::new(self.py, [self.path(key)?.into_any(), value.clone()])?;
        self.out.append(op)
    }

    fn remove(&self, key: &Bound<'py, PyAny>) -> PyResult<()> {
        self.out
            .append(PyList::new(self.py, [self.path(Some(key))?])?)
    }

    fn object(&mut self, old: &Bound<'py, PyDict>, new: &Bound<'py, PyDict>) -> PyResult<()> {
        let mut kept = 0;
        for (key, value) in new.iter() {
            match old.get_item(&key)? {
                None => self.set(Some(&key), &value)?,
                Some(was) => {
                    kept += 1;
                    if !was.is(&value) {
                        self.member(&key, &was, &value)?;
                    }
                }
            }
        }
        if kept != old.len() {
            for key in old.keys() {
                if !new.contains(&key)? {
                    self.remove(&key)?;
                }
            }
        }
        Ok(())
    }

    /// Member or element `key` went from `was` to `value` (not the same object).
    fn member(
        &mut self,
        key: &Bound<'py, PyAny>,
        was: &Bound<'py, PyAny>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<()> {
        if was.get_type_ptr() != value.get_type_ptr() {
            return self.set(Some(key), value); // True == 1, but it is not the same JSON
        }
        let container =
            value.is_exact_instance_of::<PyDict>() || value.is_exact_instance_of::<PyList>();
        if !container {
            if was.ne(value)? {
                self.set(Some(key), value)?;
            }
            return Ok(());
        }
        self.path.push(key.clone());
        let done = self.tree(was, value);
        self.path.pop();
        done
    }

    /// Two dicts or two lists (not the same object) at the current path.
    fn tree(&mut self, was: &Bound<'py, PyAny>, value: &Bound<'py, PyAny>) -> PyResult<()> {
        let pair = (was.as_ptr() as usize, value.as_ptr() as usize);
        if let Some((path, ops)) = self.memo.get(&pair) {
            if same_path(path, &self.path)? {
                for op in ops {
                    self.out.append(op)?;
                }
                return Ok(());
            }
        }
        let start = self.out.len();
        if let Ok(new) = value.cast_exact::<PyDict>() {
            // member by member (an object's members are mostly the same objects or scalars;
            // comparing it whole first would compare the changed part twice)
            self.object(was.cast_exact::<PyDict>()?, new)?;
        } else if same(was, value)? {
            // a list rebuilt equal: nothing written
        } else {
            self.list(was.cast_exact::<PyList>()?, value.cast_exact::<PyList>()?)?;
        }
        let end = self.out.len();
        let ops = if end > start {
            self.out.get_slice(start, end).iter().collect()
        } else {
            Vec::new()
        };
        self.memo.insert(pair, (self.path.clone(), ops));
        Ok(())
    }

    fn list(&mut self, old: &Bound<'py, PyList>, new: &Bound<'py, PyList>) -> PyResult<()> {
        let (n, m) = (old.len(), new.len());
        if n == m {
            for i in 0..n {
                let (a, b) = (old.get_item(i)?, new.get_item(i)?);
                if !a.is(&b) {
                    self.member(&i.into_pyobject(self.py)?.into_any(), &a, &b)?;
                }
            }
        } else if m > n && same_items(new, old, n)? {
            for i in n..m {
                self.set(
                    Some(&i.into_pyobject(self.py)?.into_any()),
                    &new.get_item(i)?,
                )?;
            }
        } else if m < n && same_items(old, new, m)? {
            self.remove(&m.into_pyobject(self.py)?.into_any())?;
        } else {
            self.set(None, new.as_any())?;
        }
        Ok(())
    }
}

/// Equal as JSON, in one walk: the same types throughout (`True` is not `1`, `1` is not
/// `1.0`), members in the same order, floats bit for bit (`-0.0` is not `0.0`). The reference
/// (Python) implementation asks `==` and compares `marshal`'s bytes.
fn same(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    if a.is(b) {
        return Ok(true);
    }
    if a.get_type_ptr() != b.get_type_ptr() {
        return Ok(false);
    }
    if let Ok(x) = a.cast_exact::<PyList>() {
        let y = b.cast_exact::<PyList>()?;
        return Ok(x.len() == y.len() && same_items(x, y, x.len())?);
    }
    if let Ok(x) = a.cast_exact::<PyDict>() {
        let y = b.cast_exact::<PyDict>()?;
        if x.len() != y.len() {
            return Ok(false);
        }
        for ((ka, va), (kb, vb)) in x.iter().zip(y.iter()) {
            if !same(&ka, &kb)? || !same(&va, &vb)? {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    if let Ok(x) = a.cast_exact::<PyFloat>() {
        let y = b.cast_exact::<PyFloat>()?;
        return Ok(x.value().to_bits() == y.value().to_bits());
    }
    a.eq(b)
}

/// The first `len` items of `x` and `y` are the same JSON (both have at least `len`).
fn same_items(x: &Bound<'_, PyList>, y: &Bound<'_, PyList>, len: usize) -> PyResult<bool> {
    for i in 0..len {
        if !same(&x.get_item(i)?, &y.get_item(i)?)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn same_path(a: &[Bound<'_, PyAny>], b: &[Bound<'_, PyAny>]) -> PyResult<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for (x, y) in a.iter().zip(b) {
        if !(x.is(y) || (x.get_type_ptr() == y.get_type_ptr() && x.eq(y)?)) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// For each `(old, new)` pair of JSON objects, the operations that turn `old` into `new` (see
/// `cardcore.web.patch.diff`). What the pairs share (the same pair of objects at the same
/// path) is compared once; pairs whose operations are the same JSON get the same list.
#[pyfunction]
pub(crate) fn web_diffs<'py>(
    pairs: Vec<(Bound<'py, PyDict>, Bound<'py, PyDict>)>,
) -> PyResult<Vec<Bound<'py, PyList>>> {
    let mut out = Vec::with_capacity(pairs.len());
    let Some(first) = pairs.first() else {
        return Ok(out);
    };
    let py = first.0.py();
    let mut d = Diff {
        py,
        out: PyList::empty(py),
        path: Vec::new(),
        memo: HashMap::new(),
    };
    for (old, new) in &pairs {
        d.out = PyList::empty(py);
        if !old.is(new) {
            d.object(old, new)?;
        }
        // pages that need the same operations (every seat but the one that moved, mostly)
        // get the same list: the caller writes its JSON once
        let mut ops = d.out.clone();
        for earlier in &out {
            if same(earlier.as_any(), ops.as_any())? {
                ops = earlier.clone();
                break;
            }
        }
        out.push(ops);
    }
    Ok(out)
}
