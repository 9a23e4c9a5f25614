fn main() {
}
// end
