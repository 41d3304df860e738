function angleInDegrees = rad2deg(angleInRadians)
%RAD2DEG Convert angles from radians to degrees.
%   D = RAD2DEG(R) converts every element of R from radians to degrees,
%   D = (180/pi)*R, keeping its size and class.  R must be single or
%   double.
%
%   Example:
%      rad2deg([pi/2 pi])   % is [90 180]
%
%   See also DEG2RAD.

if ~isfloat(angleInRadians)
    error('MATLAB:rad2deg:nonFloatInput', 'Input must be single or double.');
end
angleInDegrees = (180/pi) * angleInRadians;
end
