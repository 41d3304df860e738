function tf = istriu(A)
%ISTRIU True for an upper triangular matrix.
%   TF = ISTRIU(A) is logical 1 (true) when every element of the matrix A
%   below the main diagonal is zero, and logical 0 (false) otherwise.  A
%   need not be square.  An array with more than two dimensions is not
%   upper triangular.
%
%   Example:
%      istriu([1 2; 0 3])   % is true
%
%   See also ISTRIL, ISDIAG.

if ~(isnumeric(A) || islogical(A) || ischar(A))
    error('MATLAB:UndefinedFunction', ...
        'Check for incorrect argument data type or missing argument in call to function ''istriu''.');
end
if ndims(A) > 2
    tf = false;
    return
end
% the nonzero elements (NaN among them) must all lie on or above the diagonal
[row, col] = find(A);
tf = all(row <= col);
end
