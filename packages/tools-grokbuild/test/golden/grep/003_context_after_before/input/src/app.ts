import x from './x';
function alpha() {
  return 1;
}
const Alpha = alpha();
export default Alpha;
