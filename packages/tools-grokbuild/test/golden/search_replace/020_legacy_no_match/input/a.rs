fn main() {
    let total = compute_sum(&items);
}
