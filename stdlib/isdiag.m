function tf = isdiag(A)
%ISDIAG True for a diagonal matrix.
%   TF = ISDIAG(A) is logical 1 (true) when every element of the matrix A
%   off the main diagonal is zero, and logical 0 (false) otherwise.  A
%   need not be square.  An array with more than two dimensions is not
%   diagonal.
%
%   Example:
%      isdiag(diag([1 2 3]))   % is true
%
%   See also ISTRIU, ISTRIL.

if ~(isnumeric(A) || islogical(A) || ischar(A))
    error('MATLAB:UndefinedFunction', ...
        'Check for incorrect argument data type or missing argument in call to function ''isdiag''.');
end
if ndims(A) > 2
    tf = false;
    return
end
% the nonzero elements (NaN among them) must all lie on the diagonal
[row, col] = find(A);
tf = all(row == col);
end
