function A = vander(v)
%VANDER Vandermonde matrix.
%   A = VANDER(V) is the N-by-N matrix, N = length(V), whose columns are
%   powers of the vector V: A(i,j) = V(i)^(N-j).  Its last column is all
%   ones and the one before it is V(:).  FLIPLR(VANDER(V)) has the powers
%   in increasing order.
%
%   Example:
%      vander([1 2 3])   % is [1 1 1; 4 2 1; 9 3 1]
%
%   See also HILB, POLYFIT.

n = length(v);
v = v(:);
A = ones(n, class(v));
% each column is the next one times v: no powers, so integer-valued
% inputs give exact results
for j = n-1:-1:1
    A(:, j) = v .* A(:, j+1);
end
end
