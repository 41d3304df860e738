function tf = istril(A)
%ISTRIL True for a lower triangular matrix.
%   TF = ISTRIL(A) is logical 1 (true) when every element of the matrix A
%   above the main diagonal is zero, and logical 0 (false) otherwise.  A
%   need not be square.  An array with more than two dimensions is not
%   lower triangular.
%
%   Example:
%      istril([1 0; 2 3])   % is true
%
%   See also ISTRIU, ISDIAG.

if ~(isnumeric(A) || islogical(A) || ischar(A))
    error('MATLAB:UndefinedFunction', ...
        'Check for incorrect argument data type or missing argument in call to function ''istril''.');
end
if ndims(A) > 2
    tf = false;
    return
end
% the nonzero elements (NaN among them) must all lie on or below the diagonal
[row, col] = find(A);
tf = all(row >= col);
end
