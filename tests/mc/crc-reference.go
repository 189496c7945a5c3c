// Reference CRCs from Go's standard library (hash/crc32, hash/crc64) for the
// mc --checksum tests: `crc-reference ALGORITHM FILE [OFFSET LENGTH]` prints
// S3's form of the checksum (base64 of the big-endian value).
package main

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"os"
	"strconv"
)

func main() {
	data, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	if len(os.Args) == 5 {
		offset, _ := strconv.Atoi(os.Args[3])
		length, _ := strconv.Atoi(os.Args[4])
		data = data[offset : offset+length]
	}
	var out []byte
	switch os.Args[1] {
	case "CRC32":
		out = binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(data))
	case "CRC32C":
		out = binary.BigEndian.AppendUint32(nil, crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli)))
	case "CRC64NVME":
		// NVM Express polynomial 0xad93d23594c93659, reflected.
		out = binary.BigEndian.AppendUint64(nil, crc64.Checksum(data, crc64.MakeTable(0x9a6c9329ac4bc9b5)))
	default:
		panic("unknown algorithm " + os.Args[1])
	}
	fmt.Println(base64.StdEncoding.EncodeToString(out))
}
