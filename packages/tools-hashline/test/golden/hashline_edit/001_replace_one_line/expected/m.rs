fn main() {
    let x = 42;
    let y = 2;
}
