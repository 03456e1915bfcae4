// SPDX-License-Identifier: GPL-2.0-only
// A Rust program patched as it loads: its names demangled, legacy and
// v0, without the hash; a panic caught unwinds through patched frames.
#[inline(never)]
fn fib(n: u64) -> u64 {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}

#[inline(never)]
fn twice<T: Copy + std::ops::Add<Output = T>>(x: T) -> T {
    // (read as memory: the call stays, its result not folded in)
    let y = unsafe { std::ptr::read_volatile(&x) };
    y + y
}

#[inline(never)]
fn fails(n: u64) -> u64 {
    if n > 1 { panic!("caught") }
    n
}

fn main() {
    let r = std::panic::catch_unwind(|| fails(std::env::args().count() as u64 + 1));
    println!("{} {} {}", fib(10), twice(21u64), r.is_err());
}
