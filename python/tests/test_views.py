"""View operations are metadata: compared with the NumPy view of the same
array, and shown to share its memory."""
import numpy as np
import pytest

import stridekit as sk
from conftest import LAYOUTS, layouts


@pytest.fixture(params=LAYOUTS)
def arr(request):
    return layouts(np.arange(35, dtype=np.float64))[request.param]


def same_memory(v, a):
    got = v.numpy()
    np.testing.assert_array_equal(got, a)
    if a.size:
        assert np.shares_memory(got, a) or not a.flags.owndata


def test_view_of_array(arr):
    v = sk.view(arr)
    assert v.shape == arr.shape
    assert v.strides == tuple(s // 8 for s in arr.strides)
    np.testing.assert_array_equal(v.numpy(), arr)
    assert np.shares_memory(v.numpy(), arr)


def test_transpose_permute_swap_move(arr):
    v = sk.view(arr)
    np.testing.assert_array_equal(v.T.numpy(), arr.T)
    np.testing.assert_array_equal(v.permute(1, 0).numpy(), arr.transpose(1, 0))
    np.testing.assert_array_equal(v.swapaxes(0, 1).numpy(), arr.swapaxes(0, 1))
    np.testing.assert_array_equal(v.moveaxis(0, -1).numpy(),
                                  np.moveaxis(arr, 0, -1))
    assert np.shares_memory(v.T.numpy(), arr)


@pytest.mark.parametrize("text,index", [
    ("1:4, ::-2", np.s_[1:4, ::-2]),
    ("..., None, 3", np.s_[..., None, 3]),
    ("-1", np.s_[-1]),
    ("::2", np.s_[::2]),
    ("2:2, :", np.s_[2:2, :]),
])
def test_slice_text_and_getitem(arr, text, index):
    v = sk.view(arr)
    np.testing.assert_array_equal(v.slice(text).numpy(), arr[index])
    np.testing.assert_array_equal(v[index].numpy(), arr[index])


def test_reshape_flip_squeeze_expand_broadcast(arr):
    v = sk.view(arr)
    if arr.flags.c_contiguous:
        np.testing.assert_array_equal(v.reshape(7, -1).numpy(),
                                      arr.reshape(7, -1))
    np.testing.assert_array_equal(v.flip(1).numpy(), np.flip(arr, 1))
    e = v.expand_dims(0)
    np.testing.assert_array_equal(e.numpy(), arr[None])
    np.testing.assert_array_equal(e.squeeze().numpy(), arr)
    b = v[:, None, :].broadcast_to(5, 3, 7)
    np.testing.assert_array_equal(b.numpy(), np.broadcast_to(arr[:, None], (5, 3, 7)))
    assert "BROADCAST" in b.flags
    assert not b.numpy().flags.writeable


def test_reshape_that_needs_a_copy_raises():
    a = np.arange(12.0).reshape(3, 4).T
    with pytest.raises(sk.StridekitError) as e:
        sk.view(a).reshape(12)
    assert e.value.status_name == "SK_ERR_NEEDS_COPY"
    assert "reshape" in str(e.value)


def test_pad_is_masked_and_reads_fill(arr):
    v = sk.view(arr).pad([1, 0], [0, 2])
    assert v.shape == (6, 9) and "MASKED" in v.flags
    expected = np.pad(arr, ((1, 0), (0, 2)))
    np.testing.assert_array_equal(v.numpy(), expected)
    np.testing.assert_array_equal(sk.ascontiguous(v, fill=-1.0),
                                  np.pad(arr, ((1, 0), (0, 2)), constant_values=-1))


def test_bad_slice_raises_with_message(arr):
    with pytest.raises(sk.StridekitError, match="slice"):
        sk.view(arr).slice("0, 0, 0")
    with pytest.raises(sk.StridekitError):
        sk.view(arr).permute(0, 0)


def test_dlpack_producer():
    """An object exposing only __dlpack__ is read by sk_view_from_dlpack."""
    class Producer:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__()

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    base = np.arange(60, dtype=np.int32).reshape(6, 10)
    for a in (base, base.T, base[1:5, ::3], base[::-1, ::-2]):
        v = sk.view(Producer(a))
        assert v.shape == a.shape and v.dtype == a.dtype
        np.testing.assert_array_equal(v.numpy(), a)
        np.testing.assert_array_equal(sk.add(Producer(a), 1), a + 1)
